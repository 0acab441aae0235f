import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AgentConversationInfo, SANDBOX_RESUMED_PATH } from './contract';
import { type AgentEvent, DEMO_MODEL, type EventPage } from '../../src/contract/events';
import { type AgentServerProcess, startAgentServer } from '../testing/agent-server-process';
import { type OpenAiStub, startOpenAiStub, type StubReply } from '../testing/openai-stub';

const LLM_KEY = 'sk-control-test-llm-key-93be1f';
let server: AgentServerProcess;
let root: string;
let llm: OpenAiStub | undefined;
let counter = 0;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-control-'));
  server = await startAgentServer(root);
});
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

const startBody = (model: string, extra: object = {}) => {
  const workspace = path.join(root, 'workspaces', `w${++counter}`);
  fs.mkdirSync(workspace, { recursive: true });
  return {
    agent: {
      llm: {
        model,
        base_url: llm?.baseUrl ?? null,
        api_key: model === DEMO_MODEL ? null : LLM_KEY,
        // As the app server sends it: it knows the prices, the demo model's too.
        price: model === DEMO_MODEL ? { input: 0, output: 0, cache_read: 0 } : null,
      },
    },
    workspace: { working_dir: workspace },
    initial_message: { content: [{ type: 'text', text: 'Go.' }] },
    ...extra,
  };
};

async function start(body: object, on: AgentServerProcess = server): Promise<string> {
  const created = await on.call('POST', '/api/conversations', body);
  expect(created.status).toBe(200);
  return (created.body as AgentConversationInfo).id;
}

const terminal = (command: string): StubReply => ({ toolCalls: [{ name: 'terminal', arguments: { command } }] });
const kinds = (events: AgentEvent[]) => events.map((event) => event.kind);

/** Every frame of a socket until `last` matches one (or it closes). */
function frames(socket: ReturnType<AgentServerProcess['socket']>, last: (frame: Record<string, unknown>) => boolean) {
  const seen: Record<string, unknown>[] = [];
  return new Promise<Record<string, unknown>[]>((resolve) => {
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>;
      seen.push(frame);
      if (last(frame)) {
        socket.close();
        resolve(seen);
      }
    });
    socket.on('close', () => resolve(seen));
  });
}

describe('pausing and running', () => {
  it('pauses after the current step, responds with 409 to run while running, and goes on with run', async () => {
    llm = await startOpenAiStub();
    llm.otherwise(terminal('true'));
    const id = await start(startBody('openai/stub'));
    await llm.waitForRequests(1);
    expect(await server.call('POST', `/api/conversations/${id}/run`)).toEqual({
      status: 409,
      body: { detail: 'Conversation already running. Wait for completion or pause first.' },
    });
    expect(await server.call('POST', `/api/conversations/${id}/pause`)).toEqual({ status: 200, body: { success: true } });
    await server.status(id, 'paused');
    const paused = await server.events(id);
    expect(paused.filter((event) => event.kind === 'PauseEvent')).toEqual([expect.objectContaining({ source: 'user' })]);
    const calls = llm.requests.length;
    expect((await server.call('POST', `/api/conversations/${id}/run`)).status).toBe(200);
    await llm.waitForRequests(calls + 1);
    await server.call('POST', `/api/conversations/${id}/pause`);
    await server.status(id, 'paused');
  });

  it('stops at once when paused while the LLM has not responded, and asks again on run', async () => {
    llm = await startOpenAiStub([{ hang: true }, { text: 'Replied this time.' }]);
    const id = await start(startBody('openai/stub'));
    await llm.waitForRequests(1);
    expect((await server.call('POST', `/api/conversations/${id}/pause`)).status).toBe(200);
    await server.status(id, 'paused');
    expect((await server.call('POST', `/api/conversations/${id}/run`)).status).toBe(200);
    await server.status(id, 'finished');
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[1]?.messages).toEqual(llm.requests[0]?.messages);
    expect((await server.events(id)).filter((event) => event.kind === 'ConversationErrorEvent')).toEqual([]);
  });

  it('says paused last on the event socket when stopped mid-command or mid-call, as OpenHands’ client reads it', async () => {
    for (const first of [terminal('sleep 5'), { hang: true }] as StubReply[]) {
      llm = await startOpenAiStub([first, { text: 'Done.' }]);
      const id = await start(startBody('openai/stub'));
      const socket = server.socket(`/sockets/events/${id}`, { 'X-Session-API-Key': server.key });
      await new Promise((resolve) => socket.once('open', resolve));
      const received = frames(socket, () => false);
      await llm.waitForRequests(1);
      if ('toolCalls' in first) await vi.waitFor(async () => expect(kinds(await server.events(id))).toContain('ActionEvent'));
      expect((await server.call('POST', `/api/conversations/${id}/pause`)).status).toBe(200);
      await server.status(id, 'paused');
      await new Promise((resolve) => setTimeout(resolve, 300));
      socket.close();
      // What the client sets its status from: a full state's execution_status, or an execution_status update.
      const statuses = (await received)
        .filter((frame) => frame.kind === 'ConversationStateUpdateEvent')
        .flatMap((frame) =>
          frame.key === 'execution_status'
            ? [frame.value]
            : frame.key === 'full_state'
              ? [(frame.value as { execution_status: unknown }).execution_status]
              : [],
        );
      expect(statuses.at(-1)).toBe('paused');
      await llm.close();
      llm = undefined;
    }
  });

  it('comes back paused, saying why, when notified that its sandbox was paused mid-run', async () => {
    llm = await startOpenAiStub([{ hang: true }, { text: 'Back again.' }]);
    const id = await start(startBody('openai/stub'));
    await llm.waitForRequests(1);
    process.kill(server.child.pid!, 'SIGSTOP');
    process.kill(server.child.pid!, 'SIGCONT');
    expect(await server.call('POST', SANDBOX_RESUMED_PATH)).toEqual({ status: 200, body: { success: true } });
    await server.status(id, 'paused');
    const events = await server.events(id);
    expect(events.at(-1)).toMatchObject({ kind: 'PauseEvent', reason: 'sandbox_paused' });
    expect(events.some((event) => event.kind === 'ConversationErrorEvent')).toBe(false);
    // Continue makes the dropped call again.
    expect((await server.call('POST', `/api/conversations/${id}/run`)).status).toBe(200);
    await server.status(id, 'finished');
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[1]?.messages).toEqual(llm.requests[0]?.messages);
  });

  it('responds with 404 for an unknown conversation and 422 for a bad message', async () => {
    const unknown = 'c'.repeat(32);
    for (const [method, route] of [
      ['POST', 'pause'],
      ['POST', 'run'],
      ['GET', 'events/search'],
      ['POST', 'events'],
    ] as const) {
      expect((await server.call(method, `/api/conversations/${unknown}/${route}`, method === 'POST' ? {} : undefined)).status).toBe(404);
    }
    expect((await server.call('PATCH', `/api/conversations/${unknown}`, { title: 'x' })).status).toBe(404);
    const id = await start(startBody(DEMO_MODEL, { initial_message: null }));
    expect((await server.call('POST', `/api/conversations/${id}/events`, { content: 'not a list' })).status).toBe(422);
    expect((await server.call('PATCH', `/api/conversations/${id}`, { title: '' })).status).toBe(422);
    expect(await server.call('PATCH', `/api/conversations/${id}`, { title: 'Renamed' })).toEqual({ status: 200, body: { success: true } });
    expect((await server.call('GET', `/api/conversations/${id}`)).body).toMatchObject({ title: 'Renamed' });
  });
});

describe('starting a conversation', () => {
  const storedEvents = (id: string) =>
    fs
      .readFileSync(path.join(root, 'conversations', id, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as AgentEvent);

  it('makes one conversation of two starts of the same id at once', async () => {
    // Setting the git identity makes the start wait on git: the second start comes in meanwhile.
    const body = { ...startBody(DEMO_MODEL, { environment: { GIT_AUTHOR_NAME: 'Ada Agent' } }), conversation_id: '1'.repeat(32) };
    execFileSync('git', ['init', '-q'], { cwd: body.workspace.working_dir });
    const [first, second] = await Promise.all([
      server.call('POST', '/api/conversations', body),
      server.call('POST', '/api/conversations', body),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect((second.body as AgentConversationInfo).id).toBe(body.conversation_id);
    const id = body.conversation_id;
    await server.status(id, 'finished');
    for (const events of [await server.events(id), storedEvents(id)]) {
      expect(kinds(events).filter((kind) => kind === 'SystemPromptEvent')).toHaveLength(1);
      expect(events.filter((event) => event.kind === 'MessageEvent' && event.source === 'user')).toHaveLength(1);
    }
  });

  it('takes a start sent again while the agent runs: the run goes on with the new key', async () => {
    llm = await startOpenAiStub([terminal('until [ -f go ]; do sleep 0.05; done'), { text: 'Done with the new key.' }]);
    const body = { ...startBody('openai/stub'), conversation_id: '2'.repeat(32) };
    const id = await start(body);
    await server.waitForEvents(id, (events) => kinds(events).includes('ActionEvent'), 'the action');
    const rotated = `${LLM_KEY}-rotated`;
    const again = await server.call('POST', '/api/conversations', {
      ...body,
      agent: { llm: { ...body.agent.llm, api_key: rotated } },
      max_iterations: 7,
    });
    expect(again.body).toMatchObject({ id, execution_status: 'running', max_iterations: 7 });
    fs.writeFileSync(path.join(body.workspace.working_dir, 'go'), '');
    await server.status(id, 'finished');
    expect(llm.requests.map((request) => request.authorization)).toEqual([`Bearer ${LLM_KEY}`, `Bearer ${rotated}`]);
    const events = await server.events(id);
    expect(kinds(events)).toEqual(['SystemPromptEvent', 'MessageEvent', 'ActionEvent', 'ObservationEvent', 'MessageEvent']);
    expect(storedEvents(id)).toEqual(events);
  });
});

describe('the event socket', () => {
  it('refuses the upgrade without the key (403, as the SDK does) and closes 4004 on an unknown conversation', async () => {
    const id = await start(startBody(DEMO_MODEL, { initial_message: null }));
    const refusalOf = (socket: ReturnType<AgentServerProcess['socket']>) =>
      new Promise<number | undefined>((resolve) => {
        socket.on('unexpected-response', (_request, response) => resolve(response.statusCode));
        socket.on('open', () => resolve(undefined));
        socket.on('error', () => undefined);
      });
    expect(await refusalOf(server.socket(`/sockets/events/${id}?session_api_key=wrong`))).toBe(403);
    expect(await refusalOf(server.socket(`/sockets/events/${id}`))).toBe(403);
    const unknown = server.socket(`/sockets/events/${'d'.repeat(32)}`, { 'X-Session-API-Key': server.key });
    expect(await new Promise((resolve) => unknown.on('close', resolve))).toBe(4004);
  });

  it('survives upgrade requests whose target is no URL or whose id does not decode, answering each without the key', async () => {
    const upgrade = (target: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(new URL(server.base).port), '127.0.0.1');
        let received = '';
        socket.on('data', (chunk) => {
          received += chunk.toString();
          if (!received.includes('\r\n')) return;
          resolve(received.split('\r\n', 1)[0]!);
          socket.destroy();
        });
        socket.on('close', () => resolve(received));
        socket.on('error', reject);
        socket.write(
          `GET ${target} HTTP/1.1\r\nHost: sandbox\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
            `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        );
      });
    expect(await upgrade('http://[')).toBe('HTTP/1.1 400 Bad Request');
    expect(await upgrade('/sockets/events/%E0%A4%A')).toBe('HTTP/1.1 403 Forbidden');
    expect(await upgrade('/sockets/events/%E0%A4%A?session_api_key=' + server.key)).toMatch(/^HTTP\/1\.1 101/);
    expect(await server.call('GET', '/alive', undefined, null)).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('ignores a frame that is no message, and closes 1011 on a message it cannot store, staying up', async () => {
    const id = await start(startBody(DEMO_MODEL, { initial_message: null }));
    const socket = server.socket(`/sockets/events/${id}`, { 'X-Session-API-Key': server.key });
    const closed = new Promise<[number, string]>((resolve) => socket.on('close', (code, reason) => resolve([code, String(reason)])));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(Buffer.from([1, 2, 3]), { binary: true });
    socket.send('not json');
    socket.send(JSON.stringify({ content: 'not a list' }));
    // A directory where the event log should be: storing the message fails.
    const eventsFile = path.join(root, 'conversations', id, 'events.jsonl');
    fs.rmSync(eventsFile);
    fs.mkdirSync(eventsFile);
    socket.send(JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'Store me.' }] }));
    expect(await closed).toEqual([1011, 'The message could not be handled.']);
    expect(await server.call('GET', '/alive')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(server.output()).toContain(`a message on the socket of conversation ${id} failed`);
  });

  it('sends the full state first, replays every stored event in order with resend_all, then live ones', async () => {
    const id = await start(startBody(DEMO_MODEL));
    await server.status(id, 'finished');
    const stored = await server.events(id);
    const socket = server.socket(`/sockets/events/${id}?resend_all=true&session_api_key=${server.key}`);
    const done = frames(socket, (frame) => frame.kind === 'ConversationStateUpdateEvent' && frame.value === 'finished');
    await new Promise((resolve) => socket.once('open', resolve));
    await server.call('POST', `/api/conversations/${id}/events`, { content: [{ type: 'text', text: 'And now?' }], run: true });
    const seen = await done;
    expect(seen[0]).toMatchObject({ kind: 'ConversationStateUpdateEvent', key: 'full_state', value: { id, execution_status: 'finished' } });
    // The metrics in the SDK's place too (OpenHands' web client reads the cost of a conversation it opens there).
    const state = seen[0]!.value as { metrics: unknown; stats: { usage_to_metrics: { agent: unknown } } };
    expect(state.stats.usage_to_metrics.agent).toMatchObject(state.metrics as object);
    const storedKinds = ['SystemPromptEvent', 'MessageEvent', 'ActionEvent', 'ObservationEvent'];
    const replayedAndLive = seen.filter((frame) => storedKinds.includes(String(frame.kind)) || frame.kind === 'PauseEvent');
    const after = await server.events(id);
    // Every stored event exactly once, in the stored order: the replay, then the live ones.
    expect(replayedAndLive.map((frame) => frame.id)).toEqual(after.map((event) => event.id));
    expect(after.slice(0, stored.length)).toEqual(stored);
    expect(seen.some((frame) => frame.kind === 'StreamingDelta')).toBe(true);
  });
});

describe('events/search', () => {
  it('filters by kind, source and time, sorts, and pages with an inclusive page_id', async () => {
    const id = await start(startBody(DEMO_MODEL));
    await server.status(id, 'finished');
    const all = await server.events(id);
    const search = async (query: string) => {
      const response = await server.call('GET', `/api/conversations/${id}/events/search?${query}`);
      expect(response.status, query).toBe(200);
      return response.body as EventPage;
    };
    const messages = all.filter((event) => event.kind === 'MessageEvent');
    expect((await search('kind=openhands.sdk.event.llm_convertible.message.MessageEvent')).items).toEqual(messages);
    expect((await search('kind=MessageEvent')).items).toEqual(messages);
    expect((await search('source=environment')).items).toEqual(all.filter((event) => event.source === 'environment'));
    expect((await search('sort_order=TIMESTAMP_DESC')).items).toEqual([...all].reverse());

    const first = await search('limit=2');
    expect(first.items).toEqual(all.slice(0, 2));
    expect(first.next_page_id).toBe(all[2]?.id);
    const second = await search(`limit=2&page_id=${first.next_page_id}`);
    expect(second.items).toEqual(all.slice(2, 4));
    // Pydantic's lax integers, as OpenHands' agent server takes them
    for (const limit of ['2.0', '+2', '002']) expect(await search(`limit=${encodeURIComponent(limit)}`), limit).toEqual(first);

    const middle = all[3]!;
    const naive = middle.timestamp.replace(/Z$/, '');
    expect((await search(`timestamp__gte=${encodeURIComponent(naive)}`)).items.every((event) => event.timestamp >= middle.timestamp)).toBe(
      true,
    );
    expect(
      (await search(`timestamp__lt=${encodeURIComponent(middle.timestamp)}`)).items.every((event) => event.timestamp < middle.timestamp),
    ).toBe(true);
    expect((await search(`timestamp__gte=${encodeURIComponent(middle.timestamp)}`)).items).toContainEqual(middle);

    for (const bad of ['limit=0', 'limit=101', 'limit=x', 'sort_order=NEWEST', 'timestamp__gte=yesterday', 'source=robot']) {
      const response = await server.call('GET', `/api/conversations/${id}/events/search?${bad}`);
      expect(response.status, bad).toBe(422);
      expect(response.body, bad).toMatchObject({ detail: [{ loc: ['query', bad.split('=')[0]] }] });
    }
    const refusals = async (query: string) => (await server.call('GET', `/api/conversations/${id}/events/search?${query}`)).body;
    expect(await refusals('limit=2.5')).toEqual({
      detail: [
        {
          type: 'int_parsing',
          loc: ['query', 'limit'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: '2.5',
        },
      ],
    });
    expect(await refusals('limit=')).toMatchObject({ detail: [{ type: 'int_parsing', input: '' }] });
    expect(await refusals('limit=0')).toMatchObject({ detail: [{ type: 'greater_than_equal', input: '0' }] });
  });
});

describe('the demo model', () => {
  it('plays a scripted session that really runs in the workspace, and a scripted reply later', async () => {
    const body = startBody(DEMO_MODEL);
    // A repository's files, which its finish tours.
    fs.mkdirSync(path.join(body.workspace.working_dir, 'src'));
    fs.writeFileSync(path.join(body.workspace.working_dir, 'package.json'), '{}');
    const id = await start(body);
    await server.status(id, 'finished');
    const events = await server.events(id);
    expect(kinds(events)).toEqual([
      'SystemPromptEvent',
      'MessageEvent',
      'MessageEvent',
      'ActionEvent',
      'ObservationEvent',
      'MessageEvent',
      'ActionEvent',
      'ObservationEvent',
      'ActionEvent',
      'ObservationEvent',
    ]);
    expect(JSON.stringify(events[2])).toContain('demo model');
    expect(events[3]).toMatchObject({ tool_name: 'terminal', action: { kind: 'TerminalAction', command: 'ls -la' } });
    expect(events[4]).toMatchObject({
      observation: { kind: 'TerminalObservation', exit_code: 0, content: [{ text: expect.stringContaining('total') }] },
    });
    expect(events[6]).toMatchObject({ action: { kind: 'FileEditorAction', command: 'create', path: 'demo-notes.md' } });
    expect(fs.readFileSync(path.join(body.workspace.working_dir, 'demo-notes.md'), 'utf8')).toContain('demo model');
    expect(events[8]).toMatchObject({
      action: {
        kind: 'FinishAction',
        message: expect.stringMatching(/What is where:\n- `package\.json`: .*\n- `src`: the code\nTo run it: `npm install`/),
      },
    });
    expect(events[9]).toMatchObject({ observation: { kind: 'FinishObservation' } });
    for (const event of events) expect(event.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    for (const event of events) expect(event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await server.call('GET', `/api/conversations/${id}`)).body).toMatchObject({
      metrics: { model_name: DEMO_MODEL, cost_known: true, accumulated_cost: 0 },
    });

    await server.call('POST', `/api/conversations/${id}/events`, { content: [{ type: 'text', text: 'What now?' }], run: true });
    const later = await server.waitForEvents(
      id,
      (found) => found.length > events.length + 2 && found.at(-1)?.kind === 'ObservationEvent',
      'the scripted reply',
    );
    expect(JSON.stringify(later.slice(events.length))).toContain('demo model');
    await server.status(id, 'finished');
  });

  it('waits for each action in confirmation mode, but not for its finish', async () => {
    const body = startBody(DEMO_MODEL, { confirmation_policy: { kind: 'AlwaysConfirm' } });
    const id = await start(body);
    for (const expected of ['ls -la', 'create']) {
      await server.status(id, 'waiting_for_confirmation');
      const pending = (await server.events(id)).at(-1) as unknown as { kind: string; action: { command?: string } };
      expect(pending.kind).toBe('ActionEvent');
      expect(pending.action.command).toBe(expected);
      await server.call('POST', `/api/conversations/${id}/events/respond_to_confirmation`, { accept: true });
    }
    await server.status(id, 'finished');
    expect((await server.events(id)).at(-1)).toMatchObject({ kind: 'ObservationEvent', observation: { kind: 'FinishObservation' } });
  });

  it('rates its actions for the LLM security analyzer: under ConfirmRisky only its deletion, asked for later, waits', async () => {
    const body = startBody(DEMO_MODEL, {
      confirmation_policy: { kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: true },
      security_analyzer: { kind: 'LLMSecurityAnalyzer' },
    });
    const id = await start(body);
    await server.status(id, 'finished');
    const risks = (events: AgentEvent[]) => events.filter((event) => event.kind === 'ActionEvent').map((event) => event.security_risk);
    expect(risks(await server.events(id))).toEqual(['LOW', 'MEDIUM', 'UNKNOWN']);
    await server.call('POST', `/api/conversations/${id}/events`, {
      role: 'user',
      content: [{ type: 'text', text: 'Please delete the notes' }],
      run: true,
    });
    await server.status(id, 'waiting_for_confirmation');
    const waiting = (await server.events(id)).at(-1) as unknown as { action: { command: string }; security_risk: string };
    expect(waiting).toMatchObject({ action: { command: 'rm demo-notes.md' }, security_risk: 'HIGH' });
    await server.call('POST', `/api/conversations/${id}/events/respond_to_confirmation`, { accept: true });
    await server.status(id, 'finished');
    expect(fs.existsSync(path.join(body.workspace.working_dir, 'demo-notes.md'))).toBe(false);
  });

  it('stops at max_iterations like any model', async () => {
    const id = await start(startBody(DEMO_MODEL, { max_iterations: 1 }));
    await server.status(id, 'error');
    const events = await server.events(id);
    expect(events.at(-1)).toMatchObject({ kind: 'ConversationErrorEvent', code: 'MAX_ITERATIONS' });
  });
});

describe('a restarted agent server', () => {
  it('restores a conversation with its history when the start request comes again, and a cut run waits paused', async () => {
    const cwd = fs.mkdtempSync(path.join(root, 'restart-'));
    let first = await startAgentServer(cwd);
    llm = await startOpenAiStub([{ text: 'First reply.' }, { hang: true }, { text: 'After the restart.' }]);
    const body = { ...startBody('openai/stub'), conversation_id: 'e'.repeat(32) };
    const id = await start(body, first);
    await first.status(id, 'finished');
    await first.call('POST', `/api/conversations/${id}/events`, { content: [{ type: 'text', text: 'More.' }], run: true });
    await llm.waitForRequests(2);
    const before = await first.events(id);
    await first.stop();

    first = await startAgentServer(cwd);
    try {
      expect((await first.call('GET', `/api/conversations/${id}`)).status).toBe(404);
      const restored = await first.call('POST', '/api/conversations', { ...body, initial_message: null });
      expect(restored.body).toMatchObject({ id, execution_status: 'paused' });
      expect(await first.events(id)).toEqual(before);
      expect((await first.call('POST', `/api/conversations/${id}/run`)).status).toBe(200);
      await first.status(id, 'finished');
      expect(llm.requests[2]?.authorization).toBe(`Bearer ${LLM_KEY}`);
      expect(JSON.stringify(llm.requests[2]?.messages)).toContain('First reply.');
      expect(first.output()).not.toContain(LLM_KEY);
    } finally {
      await first.stop();
    }
  });
});

describe('the git identity', () => {
  it('is set in a workspace that is a git repository', async () => {
    const body = startBody(DEMO_MODEL, {
      initial_message: null,
      environment: { GIT_AUTHOR_NAME: 'Ada Agent', GIT_AUTHOR_EMAIL: 'ada@example.com' },
    });
    execFileSync('git', ['init', '-q'], { cwd: body.workspace.working_dir });
    await start(body);
    const config = (key: string) => execFileSync('git', ['config', key], { cwd: body.workspace.working_dir }).toString().trim();
    expect([config('user.name'), config('user.email')]).toEqual(['Ada Agent', 'ada@example.com']);
  });
});

describe('secrets', () => {
  it('has written the LLM key nowhere: not in its output, an event or a file', async () => {
    // A run of its own on the key, so the check holds when this test runs alone.
    llm = await startOpenAiStub([terminal('true'), { text: 'Done.' }]);
    const id = await start(startBody('openai/stub'));
    await server.status(id, 'finished');
    expect(llm.requests.map((request) => request.authorization)).toEqual([`Bearer ${LLM_KEY}`, `Bearer ${LLM_KEY}`]);
    expect(JSON.stringify(await server.events(id))).not.toContain(LLM_KEY);
    expect(server.output()).not.toContain(LLM_KEY);
    for (const file of fs.readdirSync(root, { recursive: true }).map(String)) {
      const full = path.join(root, file);
      if (fs.statSync(full).isFile()) expect(fs.readFileSync(full, 'utf8'), file).not.toContain(LLM_KEY);
    }
  });
});
