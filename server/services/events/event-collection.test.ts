import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppConversation, StartTask } from '../../../src/contract/conversations';
import { type AgentEvent, DEMO_MODEL } from '../../../src/contract/events';
import { SecretBox } from '../../secret-box';
import { startOpenAiStub, type OpenAiStub } from '../../testing/openai-stub';
import { conversationRecord } from '../../testing/conversation-records';
import { statusBecomes } from '../../testing/sandbox-helpers';
import { startTestApp, TEST_SECRETS_KEY, TEST_SESSION_KEY, type TestApp, type TestAppOptions } from '../../testing/test-app';

/*
 * Events collected from real agent servers (the demo model, no LLM): each stored once, in the
 * agent server's order, across app-server restarts and sandbox pauses; the actions forwarded.
 * "Nothing lost, nothing doubled" is checked against the agent server's own event log.
 */

const apps: TestApp[] = [];
const stubs: OpenAiStub[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
  for (const stub of stubs.splice(0)) await stub.close();
});

async function llmStub() {
  const stub = await startOpenAiStub();
  stubs.push(stub);
  return stub;
}

/** An app whose log lines (pino JSON, at debug) are kept. */
async function loggingApp() {
  const lines: string[] = [];
  const t = await app({ logStream: { write: (line: string) => void lines.push(line) } });
  const logged = (message: RegExp) =>
    lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((l) => message.test(l.msg));
  return { t, lines, logged };
}

const WARN = 40;

async function app(options: TestAppOptions = {}) {
  const t = await startTestApp(options);
  apps.push(t);
  return t;
}

const WAIT_MS = 20_000;
/** Each test waits for several things a demo run does; a busy machine makes them slow. */
const SLOW = { timeout: 90_000 };

const json = (t: TestApp, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
  t.request({
    method,
    url,
    ...(body === undefined ? {} : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });

const text = (words: string) => ({ role: 'user', content: [{ type: 'text', text: words }] });

async function startDemo(t: TestApp, settings: Record<string, unknown> = {}): Promise<string> {
  expect((await t.postSettings({ llm_model: DEMO_MODEL, ...settings })).statusCode).toBe(200);
  return startConversation(t);
}

/** Starts a conversation with the Settings as they are (and `request`'s fields); returns its id once it is READY. */
async function startConversation(t: TestApp, request: Record<string, unknown> = {}): Promise<string> {
  const started: StartTask = (
    await json(t, 'POST', '/api/v1/app-conversations', { initial_message: { ...text('Show me around'), run: true }, ...request })
  ).json();
  const task = await vi.waitFor(
    async () => {
      const current: StartTask = (await json(t, 'GET', `/api/v1/app-conversations/start-tasks?ids=${started.id}`)).json()[0];
      expect(['READY', 'ERROR']).toContain(current.status);
      return current;
    },
    { timeout: WAIT_MS },
  );
  expect(task.status, task.detail ?? '').toBe('READY');
  return task.app_conversation_id!;
}

const conversation = async (t: TestApp, id: string): Promise<AppConversation> =>
  (await json(t, 'GET', `/api/v1/app-conversations?ids=${id}`)).json()[0];

/** Every stored event of a conversation, in time order, paging through our search. */
async function stored(t: TestApp, id: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  let pageId: string | null = null;
  do {
    const page: { items: AgentEvent[]; next_page_id: string | null } = (
      await json(t, 'GET', `/api/v1/events/search?conversation_id__eq=${id}&limit=20${pageId ? `&page_id=${pageId}` : ''}`)
    ).json();
    events.push(...page.items);
    pageId = page.next_page_id;
  } while (pageId);
  return events;
}

interface Agent {
  url: string;
  key: string;
}

async function agentOf(t: TestApp, id: string): Promise<Agent> {
  const current = await conversation(t, id);
  expect(current.conversation_url).toBeTruthy();
  return { url: current.conversation_url!, key: current.session_api_key! };
}

const callAgent = async (agent: Agent, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${agent.url}${path}`, {
    method,
    headers: { 'X-Session-API-Key': agent.key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
};

/** The agent server's own event log of the conversation, in order. */
async function agentLog(agent: Agent): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  let pageId: string | null = null;
  do {
    const page = (await callAgent(agent, 'GET', `/events/search?limit=20${pageId ? `&page_id=${pageId}` : ''}`)).body as {
      items: AgentEvent[];
      next_page_id: string | null;
    };
    events.push(...page.items);
    pageId = page.next_page_id;
  } while (pageId);
  return events;
}

const ids = (events: AgentEvent[]) => events.map((event) => event.id);

/** Waits until what is stored here is exactly the agent server's log (same ids, same order), and returns it. */
async function inStep(t: TestApp, id: string, agent: Agent): Promise<AgentEvent[]> {
  const events = await vi.waitFor(
    async () => {
      const expected = ids(await agentLog(agent));
      const found = await stored(t, id);
      expect(ids(found)).toEqual(expected);
      return found;
    },
    { timeout: WAIT_MS },
  );
  expect(new Set(ids(events)).size).toBe(events.length);
  return events;
}

/** Waits until the conversation's execution status is one of `wanted`; returns the conversation then. */
const statusIs = (t: TestApp, id: string, wanted: string[]) =>
  vi.waitFor(
    async () => {
      const current = await conversation(t, id);
      expect(wanted).toContain(current.execution_status);
      return current;
    },
    { timeout: WAIT_MS },
  );

const errorCodes = (events: AgentEvent[]) =>
  events.filter((event) => event.kind === 'ConversationErrorEvent').map((event) => (event as { code?: string }).code);

const isFinish = (event: AgentEvent) => event.kind === 'ActionEvent' && (event.action as { kind?: string } | null)?.kind === 'FinishAction';

describe('events of a demo conversation', SLOW, () => {
  it('are collected once each, in the agent server’s order, with its status and metrics', async () => {
    const t = await app();
    const id = await startDemo(t);
    const finished = await statusIs(t, id, ['finished']);
    expect(finished.execution_status).toBe('finished');
    const agent = await agentOf(t, id);
    const events = await inStep(t, id, agent);

    const kinds = events.map((event) => event.kind);
    expect(kinds[0]).toBe('SystemPromptEvent');
    expect(kinds).toContain('MessageEvent');
    expect(kinds).toContain('ObservationEvent');
    expect(kinds).not.toContain('ConversationStateUpdateEvent');
    expect(kinds).not.toContain('StreamingDelta');
    const actions = events.filter((event) => event.kind === 'ActionEvent').map((event) => (event.action as { kind: string }).kind);
    expect(actions).toEqual(['TerminalAction', 'FileEditorAction', 'FinishAction']);
    expect(finished.metrics).toMatchObject({ accumulated_cost: 0 });
    expect((await json(t, 'GET', `/api/v1/events/count?conversation_id__eq=${id}`)).json()).toBe(events.length);
    expect((await json(t, 'GET', `/api/v1/events/count?conversation_id__eq=${id}&kind__eq=ActionEvent`)).json()).toBe(3);
  });

  it('are collected from a conversation’s start, not from the collector’s next round', async () => {
    // Its rounds an hour apart: only a start telling it at once can have its events stored.
    const t = await app({ eventCollectionRoundMs: 3_600_000 });
    const id = await startDemo(t);
    await statusIs(t, id, ['finished']);
    expect((await stored(t, id)).map((event) => event.kind)).toContain('SystemPromptEvent');
  });

  it('take messages, pause, run and confirmations through the app server', async () => {
    const t = await app();
    const id = await startDemo(t, { confirmation_mode: true });
    const agent = await agentOf(t, id);
    const post = (action: string, body?: unknown) => json(t, 'POST', `/api/v1/app-conversations/${id}/${action}`, body);

    // Confirmation mode: the first action waits; rejected, it does not run.
    await statusIs(t, id, ['waiting_for_confirmation']);
    expect((await post('confirm', { accept: false, reason: 'Not now' })).statusCode).toBe(200);
    await expect
      .poll(async () => (await stored(t, id)).map((event) => event.kind), { timeout: WAIT_MS })
      .toContain('UserRejectObservation');
    // Every later action is approved until the demo finishes.
    for (;;) {
      const current = await statusIs(t, id, ['waiting_for_confirmation', 'finished']);
      if (current.execution_status === 'finished') break;
      const approved = await post('confirm', { accept: true });
      expect([200, 409]).toContain(approved.statusCode); // 409: the status moved on meanwhile
    }
    const afterConfirming = await inStep(t, id, agent);
    const rejected = afterConfirming.find((event) => event.kind === 'UserRejectObservation');
    expect(rejected).toMatchObject({ rejection_reason: 'Not now' });
    expect(afterConfirming.some((event) => event.kind === 'ObservationEvent')).toBe(true);
    expect(afterConfirming.some(isFinish)).toBe(true);

    // Nothing waits now: the agent server's words come back as a 409.
    const nothingWaits = await post('confirm', { accept: true });
    expect(nothingWaits.statusCode).toBe(409);
    expect(nothingWaits.json().detail).toMatch(/No action is waiting/);

    // A message that does not run the agent, a pause, then a run.
    expect((await post('send-message', { ...text('Just noting this'), run: false })).statusCode).toBe(200);
    expect((await post('pause')).statusCode).toBe(200);
    await statusIs(t, id, ['paused']);
    expect((await post('run')).statusCode).toBe(200);
    await statusIs(t, id, ['finished', 'waiting_for_confirmation']);
    const events = await inStep(t, id, agent);
    const noted = events.findIndex((event) => JSON.stringify(event).includes('Just noting this'));
    expect(noted).toBeGreaterThan(0);
    expect(events.slice(noted).some((event) => event.kind === 'PauseEvent')).toBe(true);
  });
});

describe('collection survives restarts', SLOW, () => {
  it('an app-server restart: what the agent did meanwhile is caught up, nothing doubled', async () => {
    const first = await app();
    const id = await startDemo(first);
    await statusIs(first, id, ['finished']);
    const agent = await agentOf(first, id);
    const before = await inStep(first, id, agent);
    apps.splice(apps.indexOf(first), 1);
    await first.close({ keepData: true });

    // While the app server is down, the agent works on.
    expect((await callAgent(agent, 'POST', '/events', { ...text('One more thing'), run: true })).status).toBe(200);
    await expect
      .poll(async () => ((await callAgent(agent, 'GET', '')).body as { execution_status: string }).execution_status, { timeout: WAIT_MS })
      .toBe('finished');

    const second = await app({ dataDir: first.dataDir });
    const after = await inStep(second, id, agent);
    expect(after.length).toBeGreaterThan(before.length);
    expect(ids(after.slice(0, before.length))).toEqual(ids(before));
    expect(JSON.stringify(after)).toContain('One more thing');
  });

  it('a sandbox pause and resume: caught up after the resume, nothing lost or doubled', async () => {
    const t = await app();
    const id = await startDemo(t);
    const { sandbox_id: sandboxId } = await conversation(t, id);
    // Paused as soon as the agent is under way (maybe mid-run, maybe after).
    await expect.poll(async () => (await stored(t, id)).length, { timeout: WAIT_MS }).toBeGreaterThanOrEqual(2);
    expect((await json(t, 'POST', `/api/v1/sandboxes/${sandboxId}/pause`)).statusCode).toBe(200);
    await statusBecomes(t, sandboxId, 'PAUSED');
    const refused = await json(t, 'POST', `/api/v1/app-conversations/${id}/run`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/resume its sandbox first/);

    expect((await json(t, 'POST', `/api/v1/sandboxes/${sandboxId}/resume`)).statusCode).toBe(200);
    await statusBecomes(t, sandboxId, 'RUNNING', WAIT_MS);
    await statusIs(t, id, ['paused', 'finished']);
    // Continue (a run cut by the pause is paused; a finished one replies once more).
    await expect
      .poll(async () => (await json(t, 'POST', `/api/v1/app-conversations/${id}/run`)).statusCode, { timeout: WAIT_MS })
      .toBe(200);
    await statusIs(t, id, ['finished']);
    const events = await inStep(t, id, await agentOf(t, id));
    expect(events.some(isFinish)).toBe(true);
  });

  it('a conversation its agent server does not know (the sandbox restarted) is created there again', async () => {
    const t = await app();
    const known = await startDemo(t);
    const record = await t.db.selectFrom('app_conversations').selectAll().where('id', '=', known).executeTakeFirstOrThrow();
    expect(record.working_dir).toBeTruthy();
    const lost = randomUUID().replaceAll('-', '');
    await t.db
      .insertInto('app_conversations')
      .values({ ...record, id: lost, title: 'lost', working_dir: `${record.working_dir}-lost`, sandbox_created: 0, metrics: null })
      .execute();
    const agent = await agentOf(t, lost);
    await expect.poll(async () => (await callAgent(agent, 'GET', '')).status, { timeout: WAIT_MS }).toBe(200);
    const events = await inStep(t, lost, agent);
    expect(events.map((event) => event.kind)).toEqual(['SystemPromptEvent']); // no initial message the second time
  });
});

describe('an agent server that refuses', SLOW, () => {
  it('the key it was given: a 503 that says so, never a 401 that would sign the user out', async () => {
    const t = await app();
    const id = await startDemo(t);
    await statusIs(t, id, ['finished']);
    const { sandbox_id: sandboxId } = await conversation(t, id);
    // The registry now holds another key than the one the sandbox's agent server was started with.
    await t.db
      .updateTable('sandboxes')
      .set({ session_key: new SecretBox(TEST_SECRETS_KEY).seal('not-the-sandbox-key') })
      .where('id', '=', sandboxId)
      .execute();
    const refused = await json(t, 'POST', `/api/v1/app-conversations/${id}/send-message`, text('Hello?'));
    expect(refused.statusCode).toBe(503);
    expect(refused.json().detail).toMatch(/refused the sandbox's key/);
  });
});

describe('secrets', SLOW, () => {
  it('no LLM key or sandbox key in any log line or stored event', async () => {
    const lines: string[] = [];
    const t = await app({ logStream: { write: (line: string) => void lines.push(line) } });
    const llmKey = `sk-test-${randomUUID()}`;
    const id = await startDemo(t, { llm_api_key: llmKey });
    await statusIs(t, id, ['finished']);
    const agent = await agentOf(t, id);
    const events = await inStep(t, id, agent);
    // The pause/resume and actions paths log too.
    expect((await json(t, 'POST', `/api/v1/app-conversations/${id}/send-message`, text('Anything else?'))).statusCode).toBe(200);
    await statusIs(t, id, ['finished']);
    await inStep(t, id, agent);

    const storedText = (await t.db.selectFrom('conversation_events').select('body').execute()).map((row) => row.body).join('\n');
    expect(events.length).toBeGreaterThan(0);
    expect(lines.length).toBeGreaterThan(0);
    for (const secret of [llmKey, agent.key]) {
      expect(lines.join('')).not.toContain(secret);
      expect(storedText).not.toContain(secret);
    }
  });

  it('the LLM key an LLM gets is in no log line, stored event, API response or sandbox file', async () => {
    const llm = await llmStub();
    llm.enqueue({ toolCalls: [{ name: 'terminal', arguments: { command: 'env' } }] }, { text: 'Done.' });
    const { t, lines } = await loggingApp();
    const llmKey = `sk-proj-${randomUUID().replaceAll('-', '')}`;
    const settings = { llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl, llm_api_key: llmKey };
    expect((await t.postSettings(settings)).statusCode).toBe(200);
    const id = await startConversation(t);
    await statusIs(t, id, ['finished']);
    expect((await json(t, 'POST', `/api/v1/app-conversations/${id}/send-message`, text('Anything else?'))).statusCode).toBe(200);
    await statusIs(t, id, ['finished']);
    const events = await inStep(t, id, await agentOf(t, id));
    expect(llm.requests.length).toBeGreaterThanOrEqual(3);
    for (const request of llm.requests) expect([request.authorization, request.model]).toEqual([`Bearer ${llmKey}`, 'stub-model']);

    const storedText = (await t.db.selectFrom('conversation_events').select('body').execute()).map((row) => row.body).join('\n');
    const responses = [
      JSON.stringify(events),
      (await json(t, 'GET', `/api/v1/app-conversations?ids=${id}`)).body,
      (await json(t, 'GET', `/api/v1/app-conversations/search`)).body,
      (await t.getSettings()).body,
    ];
    const sandboxFiles = filesUnder(path.join(t.dataDir, 'sandboxes'));
    expect(events.some((event) => event.kind === 'ObservationEvent')).toBe(true);
    expect(sandboxFiles.length).toBeGreaterThan(0);
    expect(lines.join('')).not.toContain(llmKey);
    expect(storedText).not.toContain(llmKey);
    for (const response of responses) expect(response).not.toContain(llmKey);
    for (const file of sandboxFiles) expect(fs.readFileSync(file).toString('latin1'), file).not.toContain(llmKey);
  });
});

/** Every regular file under `dir`, however deep. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('Settings reach a conversation that exists', SLOW, () => {
  it('a model chosen after a NO_MODEL error runs on Continue', async () => {
    const t = await app();
    const id = await startConversation(t); // no model in Settings
    await statusIs(t, id, ['error']);
    const agent = await agentOf(t, id);
    expect(errorCodes(await inStep(t, id, agent))).toEqual(['NO_MODEL']);

    expect((await t.postSettings({ llm_model: DEMO_MODEL })).statusCode).toBe(200);
    expect((await json(t, 'POST', `/api/v1/app-conversations/${id}/run`)).statusCode).toBe(200);
    await statusIs(t, id, ['finished']);
    const events = await inStep(t, id, agent);
    expect(events.some(isFinish)).toBe(true);
    expect(errorCodes(events)).toEqual(['NO_MODEL']);
  });

  it('a key fixed after an LLM_AUTH error is the one the LLM gets next', async () => {
    const llm = await llmStub();
    llm.enqueue({ status: 401 });
    const t = await app();
    expect((await t.postSettings({ llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl, llm_api_key: 'sk-wrong' })).statusCode).toBe(
      200,
    );
    const id = await startConversation(t);
    await statusIs(t, id, ['error']);
    expect(errorCodes(await inStep(t, id, await agentOf(t, id)))).toEqual(['LLM_AUTH']);

    expect((await t.postSettings({ llm_api_key: 'sk-right' })).statusCode).toBe(200);
    expect((await json(t, 'POST', `/api/v1/app-conversations/${id}/send-message`, text('Try again'))).statusCode).toBe(200);
    await statusIs(t, id, ['finished']);
    expect(llm.requests.map((request) => request.authorization)).toEqual(['Bearer sk-wrong', 'Bearer sk-right']);
  });
});

describe('execution statuses through the app server', SLOW, () => {
  it('stuck when the agent repeats itself, and going again on a message; idle after a message that does not run it', async () => {
    const llm = await llmStub();
    llm.otherwise({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo same' } }] });
    const t = await app();
    expect((await t.postSettings({ llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl, llm_api_key: 'sk-stub' })).statusCode).toBe(
      200,
    );
    const id = await startConversation(t);
    await statusIs(t, id, ['stuck']);
    expect(llm.requests).toHaveLength(4);

    llm.otherwise({ toolCalls: [{ name: 'finish', arguments: { message: 'Done differently.' } }] });
    expect((await json(t, 'POST', `/api/v1/app-conversations/${id}/send-message`, text('Do it differently'))).statusCode).toBe(200);
    await statusIs(t, id, ['finished']);
    const later = { ...text('Noted, nothing to do'), run: false };
    expect((await json(t, 'POST', `/api/v1/app-conversations/${id}/send-message`, later)).statusCode).toBe(200);
    await statusIs(t, id, ['idle']);
  });
});

describe('a deleted conversation whose sandbox stays', SLOW, () => {
  it('has its agent paused, its stream ended and its events no longer collected', async () => {
    const { t, logged } = await loggingApp();
    const kept = await startDemo(t);
    const { sandbox_id: sandboxId } = await conversation(t, kept);
    const gone = await startConversation(t, { sandbox_id: sandboxId });
    await statusIs(t, gone, ['finished']);
    const agent = await agentOf(t, gone);
    await inStep(t, gone, agent);

    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const stream = await fetch(`${base}/api/v1/app-conversations/${gone}/events/stream`, {
      headers: { 'x-session-api-key': TEST_SESSION_KEY },
    });
    expect(stream.status).toBe(200);
    const streamed = stream.text(); // resolves once the stream ends

    expect((await json(t, 'DELETE', `/api/v1/app-conversations/${gone}`)).statusCode).toBe(200);
    await streamed;
    expect(((await callAgent(agent, 'GET', '')).body as { execution_status: string }).execution_status).toBe('paused');
    expect((await conversation(t, kept)).sandbox_status).toBe('RUNNING');

    // What its agent does now is not collected (its socket is closed): no event fails to be stored.
    expect((await callAgent(agent, 'POST', '/events', { ...text('Still there?'), run: false })).status).toBe(200);
    await t.services.collector.sync();
    await t.services.collector.sync();
    expect(logged(/could not store an event/)).toEqual([]);
    expect(await t.db.selectFrom('conversation_events').select('event_id').where('conversation_id', '=', gone).execute()).toEqual([]);
  });
});

describe('collection failures', SLOW, () => {
  it('an event that could not be stored is stored in order once storing works again', async () => {
    const { t, logged } = await loggingApp();
    // Storing observations fails until the trigger goes.
    await sql`CREATE TRIGGER refuse_observations BEFORE INSERT ON conversation_events WHEN NEW.kind = 'ObservationEvent'
      BEGIN SELECT RAISE(ABORT, 'refused for the test'); END`.execute(t.db);
    const id = await startDemo(t);
    await expect.poll(() => logged(/could not store an event/).length, { timeout: WAIT_MS }).toBeGreaterThan(0);
    await sql`DROP TRIGGER refuse_observations`.execute(t.db);
    await statusIs(t, id, ['finished']);
    const events = await inStep(t, id, await agentOf(t, id));
    expect(events.some((event) => event.kind === 'ObservationEvent')).toBe(true);
  });

  it('a conversation that cannot be created again is warned of once, then at debug', async () => {
    const { t, logged } = await loggingApp();
    const known = await startDemo(t);
    const record = await t.db.selectFrom('app_conversations').selectAll().where('id', '=', known).executeTakeFirstOrThrow();
    // From before workspaces were recorded: it cannot be created again.
    const lost = randomUUID().replaceAll('-', '');
    await t.db
      .insertInto('app_conversations')
      .values({ ...record, id: lost, title: 'lost', working_dir: null, sandbox_created: 0, metrics: null })
      .execute();
    const tries = await vi.waitFor(
      () => {
        const lines = logged(/could not create a conversation again/);
        expect(lines.length).toBeGreaterThanOrEqual(3);
        return lines;
      },
      { timeout: WAIT_MS },
    );
    expect(tries.filter((line) => line.level >= WARN)).toHaveLength(1);
  });
});

/**
 * An agent server its own sandbox took over: upgrades the event socket, then announces a 64 MiB
 * text frame and streams it, heeding backpressure; it prints how much it got to send each time.
 */
const OVERSIZED_FRAMES = `
const crypto = require('crypto');
const server = require('http').createServer((request, response) => response.end('{"status":"ok"}'));
server.on('upgrade', (request, socket) => {
  const accept = crypto.createHash('sha1').update(request.headers['sec-websocket-key'] + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
  socket.write('HTTP/1.1 101 Switching Protocols\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\nSec-WebSocket-Accept: ' + accept + '\\r\\n\\r\\n');
  const size = 64 * 2 ** 20, chunk = Buffer.alloc(2 ** 16, 'x');
  const header = Buffer.alloc(10);
  header[0] = 0x81; header[1] = 127; header.writeBigUInt64BE(BigInt(size), 2);
  let sent = 0;
  const send = () => {
    while (sent < size && !socket.destroyed) { sent += chunk.length; if (!socket.write(chunk)) return socket.once('drain', send); }
    if (sent >= size) console.log('frame sent whole');
  };
  socket.on('error', () => {});
  socket.on('close', () => console.log('frame cut after ' + sent + ' bytes'));
  socket.write(header);
  send();
});
server.listen(Number(process.env.PORT), process.env.HOST);
`;

describe('an agent server taken over by its sandbox', SLOW, () => {
  it('cannot make the app server read a frame larger than its cap: the connection ends at its header', async () => {
    const spec = {
      id: 'oversized',
      command: ['node', '-e', OVERSIZED_FRAMES],
      created_at: new Date().toISOString(),
      initial_env: {},
      working_dir: '',
    };
    const t = await app({ sandboxSpecs: [spec] });
    const sandbox = (await json(t, 'POST', '/api/v1/sandboxes?sandbox_spec_id=oversized')).json() as { id: string };
    await statusBecomes(t, sandbox.id, 'RUNNING');
    const id = randomUUID().replaceAll('-', '');
    await t.db
      .insertInto('app_conversations')
      .values(conversationRecord({ id, sandbox_id: sandbox.id, sandbox_created: 1 }))
      .execute();
    await t.services.collector.sync();
    const outcome = await vi.waitFor(
      async () => {
        const lines = (await json(t, 'GET', `/api/v1/sandboxes/${sandbox.id}/logs`)).json().lines as string[];
        const line = lines.find((text) => text.startsWith('frame '));
        expect(line).toBeDefined();
        return line!;
      },
      { timeout: WAIT_MS },
    );
    // Cut at once, not after a close handshake the sender ignores: what the kernel's buffers took meanwhile, a fraction of the frame.
    expect(outcome).toMatch(/^frame cut after \d+ bytes$/);
    expect(Number(/\d+/.exec(outcome)![0])).toBeLessThan(16 * 2 ** 20);
    expect(await t.db.selectFrom('conversation_events').select('event_id').where('conversation_id', '=', id).execute()).toEqual([]);
    expect((await t.request({ method: 'GET', url: '/alive' })).statusCode).toBe(200);
  });
});
