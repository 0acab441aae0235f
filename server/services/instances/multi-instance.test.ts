import { asSystem } from '../../authz/caller';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stateUpdate } from '../../agent-server/event-factory';
import { SecretBox } from '../../secret-box';
import { conversationRecord, startTaskRecord } from '../../testing/conversation-records';
import { addMember } from '../../testing/team-members';
import { loadSandboxSpecs } from '../../sandboxes/specs';
import { freshPostgresDatabase } from '../../testing/databases';
import { logLines, sandboxInfo, shellSpec, startSandbox, statusBecomes } from '../../testing/sandbox-helpers';
import { startTestApp, TEST_SECRETS_KEY, TEST_SESSION_KEY, type TestApp, type TestAppOptions } from '../../testing/test-app';

/*
 * Two server instances on one PostgreSQL database, as behind a load balancer: each with its own
 * data dir and runtime, both listening so that each can forward to the other.
 */

const CHATTY = shellSpec('chatty', 'echo hello-from-its-owner; sleep 600');

let database: { url: string; drop: () => Promise<void> };
const apps: TestApp[] = [];
beforeEach(async () => {
  database = await freshPostgresDatabase();
});
afterEach(async () => {
  for (const t of apps.splice(0).reverse()) await t.close();
  await database.drop();
});

async function instance(options: TestAppOptions = {}): Promise<TestApp> {
  const t = await startTestApp({ databaseUrl: database.url, listen: true, sandboxSpecs: [CHATTY], ...options });
  apps.push(t);
  return t;
}

const postSettings = (t: TestApp, body: unknown) => t.postSettings(body);

/** Conversation `id` in sandbox `sandboxId`, stored as a start leaves it. */
async function conversationIn(t: TestApp, sandboxId: string): Promise<string> {
  const id = randomUUID().replaceAll('-', '');
  await t.db
    .insertInto('app_conversations')
    .values(conversationRecord({ id, sandbox_id: sandboxId, title: 'followed' }))
    .execute();
  return id;
}

/** Pushes events to an instance's webhook as the sandbox's agent server would. */
async function push(t: TestApp, sandboxId: string, conversationId: string, texts: string[]): Promise<string[]> {
  const row = await t.db.selectFrom('sandboxes').select('session_key').where('id', '=', sandboxId).executeTakeFirstOrThrow();
  const events = texts.map((text) => ({
    kind: 'MessageEvent',
    id: randomUUID(),
    timestamp: new Date().toISOString(),
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text }] },
  }));
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/v1/webhooks/${sandboxId}/events/${conversationId}`,
    headers: { 'content-type': 'application/json', 'x-session-api-key': new SecretBox(TEST_SECRETS_KEY).open(row.session_key) },
    payload: JSON.stringify(events),
  });
  expect(response.statusCode, response.body).toBe(200);
  return events.map((event) => event.id);
}

/**
 * What a listening instance streams for a conversation, as it comes: the ids of the stored
 * events, and every frame in order (a stored event as its id, a transient one as sent).
 */
async function openStream(t: TestApp, conversationId: string) {
  const controller = new AbortController();
  const response = await fetch(`${t.address}/api/v1/app-conversations/${conversationId}/events/stream`, {
    headers: { 'x-session-api-key': TEST_SESSION_KEY },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const ids: string[] = [];
  const frames: unknown[] = [];
  void (async () => {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop()!;
      for (const block of blocks) {
        const id = /^id: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (id && !ids.includes(id)) ids.push(id);
        if (data) frames.push(id ? { id } : JSON.parse(data));
      }
    }
  })().catch(() => undefined);
  return { ids, frames, close: () => controller.abort() };
}

describe('two instances on one PostgreSQL database', () => {
  it('what one writes the other reads; saves through both at once lose nothing', async () => {
    const [a, b] = [await instance(), await instance()];
    expect((await postSettings(a, { llm_model: 'openai/gpt-4o', llm_api_key: 'sk-from-a' })).statusCode).toBe(200);
    expect((await b.getSettings()).json()).toMatchObject({ llm_model: 'openai/gpt-4o', llm_api_key_set: true });

    const fields = ['language', 'agent', 'max_iterations', 'confirmation_mode'] as const;
    const values = { language: 'fr', agent: 'CodeActAgent', max_iterations: 42, confirmation_mode: true };
    const responses = await Promise.all(fields.map((field, i) => postSettings(i % 2 ? b : a, { [field]: values[field] })));
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect((await a.getSettings()).json()).toMatchObject({ ...values, llm_model: 'openai/gpt-4o' });
    expect((await b.getSettings()).json()).toMatchObject(values);
  });

  it('a sandbox of one is shown, paused, resumed, read and deleted through the other', async () => {
    let ownerLog = '';
    const a = await instance({ logStream: { write: (line: string) => void (ownerLog += line) } });
    const b = await instance();
    /** What the owner was asked (the other instance forwards to it; both run on this machine, so only this tells). */
    const ownerWasAsked = (method: string, url: string) => ownerLog.includes(`"method":"${method}","url":"${url}"`);
    const { id } = await startSandbox(a, 'chatty');
    expect(await a.db.selectFrom('sandboxes').select('owner_instance').where('id', '=', id).executeTakeFirstOrThrow()).toEqual({
      owner_instance: a.services.instances.id,
    });
    const [throughA, throughB] = [await sandboxInfo(a, id), await sandboxInfo(b, id)];
    expect(throughB).toEqual(throughA);
    await expect.poll(() => logLines(b, id), { timeout: 10_000 }).toContain('hello-from-its-owner');

    expect(ownerWasAsked('GET', `/api/v1/sandboxes?id=${id}`)).toBe(true);
    expect((await b.request({ method: 'POST', url: `/api/v1/sandboxes/${id}/pause` })).statusCode).toBe(200);
    expect(ownerWasAsked('POST', `/api/v1/sandboxes/${id}/pause`)).toBe(true);
    expect((await sandboxInfo(a, id))?.status).toBe('PAUSED');
    expect((await sandboxInfo(b, id))?.status).toBe('PAUSED');
    expect((await b.request({ method: 'POST', url: `/api/v1/sandboxes/${id}/resume` })).json()).toMatchObject({ success: true });
    expect((await sandboxInfo(a, id))?.status).not.toBe('PAUSED');

    expect(ownerWasAsked('POST', `/api/v1/sandboxes/${id}/resume`)).toBe(true);

    // A message to the agent of a conversation in it: the owner talks to its agent server, and its refusal comes back.
    const conversationId = await conversationIn(a, id);
    const message = { role: 'user', content: [{ type: 'text', text: 'hello' }] };
    const sent = await b.request({
      method: 'POST',
      url: `/api/v1/app-conversations/${conversationId}/send-message`,
      payload: JSON.stringify(message),
      headers: { 'content-type': 'application/json' },
    });
    expect(ownerWasAsked('POST', `/api/v1/app-conversations/${conversationId}/send-message`)).toBe(true);
    const ownResponse = await a.request({
      method: 'POST',
      url: `/api/v1/app-conversations/${conversationId}/send-message`,
      payload: JSON.stringify(message),
      headers: { 'content-type': 'application/json' },
    });
    expect(ownResponse.statusCode).toBe(409); // its sandbox runs no agent server
    expect({ status: sent.statusCode, body: sent.json() }).toEqual({ status: 409, body: ownResponse.json() });

    expect((await b.request({ method: 'DELETE', url: `/api/v1/sandboxes/${id}` })).json()).toEqual({ success: true });
    expect(ownerWasAsked('DELETE', `/api/v1/sandboxes/${id}`)).toBe(true);
    expect(await sandboxInfo(a, id)).toBeNull();
    expect((await b.request({ method: 'POST', url: `/api/v1/sandboxes/${id}/pause` })).statusCode).toBe(404);
  });

  it('a sandbox whose instance stopped or went quiet is MISSING on the other, with the reason', async () => {
    const a = await startTestApp({ databaseUrl: database.url, listen: true, sandboxSpecs: [CHATTY] });
    // a writes its heartbeat every 5 s: b judges it quiet only once that is 30 s old, however busy the machine.
    const b = await instance({ instanceTiming: { heartbeatMs: 60_000, quietMs: 30_000 } });
    const { id } = await startSandbox(a, 'chatty');
    expect((await sandboxInfo(b, id))?.status).not.toBe('MISSING');

    await a.close({ keepData: true }); // its sandbox runs on, unwatched
    const stopped = await sandboxInfo(b, id);
    expect(stopped).toMatchObject({ status: 'MISSING', status_detail: expect.stringMatching(/^Its server instance \S+ stopped at /) });
    const refused = await b.request({ method: 'POST', url: `/api/v1/sandboxes/${id}/pause` });
    expect(refused.statusCode).toBe(503);
    expect(refused.json().detail).toMatch(/runs on another server instance\. Its server instance \S+ stopped at/);

    // Started again on its data dir, it owns the sandbox again; then it goes quiet.
    const again = await instance({ dataDir: a.dataDir, instanceTiming: { heartbeatMs: 60_000, quietMs: 30_000 } });
    await statusBecomes(b, id, 'STARTING');
    await again.db
      .updateTable('server_instances')
      .set({ heartbeat_at: new Date(Date.now() - 60_000).toISOString() })
      .where('id', '=', again.services.instances.id)
      .execute();
    expect(await sandboxInfo(b, id)).toMatchObject({
      status: 'MISSING',
      status_detail: expect.stringMatching(/has sent no heartbeat since/),
    });
  });

  it('a sandbox of an instance that announced the same address as this one is MISSING, not forwarded round and round', async () => {
    const a = await instance();
    const b = await instance();
    const { id } = await startSandbox(a, 'chatty');
    const before = (await sandboxInfo(a, id))?.status;
    expect(before).not.toBe('MISSING');
    await b.services.instances.announce(a.address!); // as two hosts that both announce 127.0.0.1:3000

    expect(await sandboxInfo(b, id)).toMatchObject({
      status: 'MISSING',
      status_detail: expect.stringMatching(/announced this instance's own address .*give each instance an INSTANCE_URL of its own/),
    });
    const refused = await b.request({ method: 'POST', url: `/api/v1/sandboxes/${id}/pause` });
    expect(refused.statusCode).toBe(503);
    expect((await sandboxInfo(a, id))?.status).toBe(before); // not paused through the loop
  });

  it("a conversation's events stream through the instance that does not collect them, live", async () => {
    const [a, b] = [await instance(), await instance()];
    const { id: sandboxId } = await startSandbox(a, 'chatty');
    const conversationId = await conversationIn(a, sandboxId);
    const before = await push(a, sandboxId, conversationId, ['one', 'two']);

    const stream = await openStream(b, conversationId);
    await expect.poll(() => stream.ids.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    // Stored by the owner from now on: the other instance is notified of it (LISTEN/NOTIFY) and streams it.
    const after = await push(a, sandboxId, conversationId, ['three']);
    const more = await push(a, sandboxId, conversationId, ['four', 'five']);
    await expect.poll(() => stream.ids.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(5);
    expect(stream.ids).toEqual([...before, ...after, ...more]);
    stream.close();
  });

  it("a running agent's state and streaming text reach a stream through the other instance as they reach the owner's", async () => {
    const [a, b] = [await instance(), await instance()];
    const { id: sandboxId } = await startSandbox(a, 'chatty');
    const conversationId = await conversationIn(a, sandboxId);
    const [first] = await push(a, sandboxId, conversationId, ['one']);
    const [throughOwner, throughOther] = [await openStream(a, conversationId), await openStream(b, conversationId)];
    for (const stream of [throughOwner, throughOther]) {
      await expect.poll(() => stream.ids, { timeout: 10_000 }).toContain(first!);
    }

    // What the owner's collector hands on from the agent server's socket, in its order.
    const statusUpdate = (status: string) => stateUpdate('execution_status', status);
    const delta = (text: string) => ({ kind: 'StreamingDelta', conversation_id: conversationId, llm_response_id: 'reply-1', delta: text });
    const reply = {
      kind: 'MessageEvent',
      id: randomUUID(),
      timestamp: new Date().toISOString(),
      source: 'agent',
      llm_response_id: 'reply-1',
      llm_message: { role: 'assistant', content: [{ type: 'text', text: 'Hello there' }] },
    };
    await a.services.events.receive(asSystem('collect events'), conversationId, [
      statusUpdate('running'),
      delta('Hel'),
      delta('lo there'),
      reply,
      statusUpdate('finished'),
    ]);
    // A delta larger than a NOTIFY may carry goes in pieces of the same reply.
    const long = 'é😀 "quoted"\n'.repeat(1_500);
    await a.services.events.receive(asSystem('collect events'), conversationId, [delta(long)]);

    const hasLastPiece = (frames: unknown[]) => frames.some((frame) => (frame as { delta?: string }).delta?.endsWith('"quoted"\n'));
    const framesWithLastPiece = (stream: { frames: unknown[] }) =>
      vi.waitFor(
        () => {
          expect(hasLastPiece(stream.frames)).toBe(true);
          return stream.frames;
        },
        { timeout: 10_000 },
      );
    const [owner, other] = [await framesWithLastPiece(throughOwner), await framesWithLastPiece(throughOther)];
    const state = (status: string) => ({
      kind: 'ConversationState',
      conversation_id: conversationId,
      execution_status: status,
      metrics: null,
    });
    const expected = [{ id: first }, state('running'), delta('Hel'), delta('lo there'), { id: reply.id }, state('finished')];
    expect(owner).toEqual([...expected, delta(long)]);
    expect(other.slice(0, expected.length)).toEqual(expected);
    const pieces = other.slice(expected.length) as ReturnType<typeof delta>[];
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.every((piece) => piece.kind === 'StreamingDelta' && piece.llm_response_id === 'reply-1')).toBe(true);
    expect(pieces.map((piece) => piece.delta).join('')).toBe(long);
    // The other instance knows the agent's status as the owner does.
    expect(b.services.events.executionStatus(conversationId)).toBe('finished');

    // Each loses the connection it receives notices on: what the other relayed meanwhile is missed, so
    // it forgets what it was sent once it listens again; what the owner received itself, it keeps.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'agent-console notices'`);
    } finally {
      await admin.end();
    }
    await expect.poll(() => b.services.events.executionStatus(conversationId), { timeout: 10_000 }).toBeUndefined();
    expect(a.services.events.executionStatus(conversationId)).toBe('finished');
    // The streams are left open: each instance ends its own as it stops.
  });

  it("a conversation deleted through one has its agent paused by the owner of its sandbox, whose addresses are on the owner's host", async () => {
    let ownerLog = '';
    const a = await instance({ logStream: { write: (line: string) => void (ownerLog += line) } });
    const b = await instance();
    const { id: sandboxId } = await startSandbox(a, 'chatty');
    const conversationId = await conversationIn(a, sandboxId);
    const deleted = await b.request({ method: 'DELETE', url: `/api/v1/app-conversations/${conversationId}` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(ownerLog).toContain(`"method":"POST","url":"/api/v1/app-conversations/${conversationId}/pause"`);
  });

  it('a conversation started through one in a sandbox of the other is started by the owner, and followed through the first', async () => {
    let ownerLog = '';
    // The sandbox runs no agent server: the start ends in ERROR once its start timeout is over.
    const a = await instance({ logStream: { write: (line: string) => void (ownerLog += line) }, sandboxLimits: { startTimeoutMs: 1_000 } });
    const b = await instance();
    const { id } = await startSandbox(a, 'chatty');
    const streamed = await b.request({
      method: 'POST',
      url: '/api/v1/app-conversations/stream-start',
      payload: JSON.stringify({ sandbox_id: id, title: 'started elsewhere' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(streamed.statusCode, streamed.body).toBe(200);
    const states = streamed.json() as { id: string; status: string; detail: string | null }[];
    expect(ownerLog).toContain('"method":"POST","url":"/api/v1/app-conversations"');
    expect(states[0]?.status).toBe('WORKING');
    expect(states.at(-1)).toMatchObject({ status: 'ERROR', detail: expect.any(String) });
    const task = await b.db
      .selectFrom('start_tasks')
      .select(['owner_instance', 'status'])
      .where('id', '=', states[0]!.id)
      .executeTakeFirstOrThrow();
    expect(task).toEqual({ owner_instance: a.services.instances.id, status: 'ERROR' });
  });

  it("a member's calls through one reach the other as theirs: a start there is their task, another member's is refused first", async () => {
    const a = await instance({ sandboxLimits: { startTimeoutMs: 1_000 } });
    const b = await instance();
    const member = await addMember(a, 'm@example.com', 'member');
    const other = await addMember(b, 'o@example.com', 'member');
    const as = (t: TestApp, key: string, method: 'GET' | 'POST', url: string, body?: unknown) =>
      t.app.inject({
        method,
        url,
        headers: { 'x-session-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { payload: JSON.stringify(body) } : {}),
      });
    const { id } = (await as(a, member.key, 'POST', '/api/v1/sandboxes?sandbox_spec_id=chatty')).json() as { id: string };
    expect((await as(b, other.key, 'POST', `/api/v1/sandboxes/${id}/pause`)).statusCode).toBe(404);
    expect((await as(b, member.key, 'POST', `/api/v1/sandboxes/${id}/pause`)).statusCode).toBe(200);
    expect((await sandboxInfo(a, id))?.status).toBe('PAUSED');
    await as(b, member.key, 'POST', `/api/v1/sandboxes/${id}/resume`);
    const task = (await as(b, member.key, 'POST', '/api/v1/app-conversations', { sandbox_id: id, title: 'started elsewhere' })).json() as {
      id: string;
      created_by_user_id: string;
    };
    expect(task.created_by_user_id).toBe(member.userId);
    const stored = await a.db
      .selectFrom('start_tasks')
      .select(['user_id', 'owner_instance'])
      .where('id', '=', task.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ user_id: member.userId, owner_instance: a.services.instances.id });
  });

  it('a sandbox of one, read through the other, has its key for its owner and for nobody else', async () => {
    const withAgentServer = { sandboxSpecs: loadSandboxSpecs(undefined) };
    const a = await instance(withAgentServer);
    const b = await instance(withAgentServer);
    const member = await addMember(a, 'm@example.com', 'member');
    const admin = await addMember(b, 'admin@example.com', 'admin');
    const started = await a.app.inject({ method: 'POST', url: '/api/v1/sandboxes', headers: { 'x-session-api-key': member.key } });
    const { id } = started.json() as { id: string };
    await vi.waitFor(async () => expect((await sandboxInfo(a, id))?.status).toBe('RUNNING'), { timeout: 20_000 });
    const through = async (key: string) =>
      (
        (await b.app.inject({ method: 'GET', url: `/api/v1/sandboxes?id=${id}`, headers: { 'x-session-api-key': key } })).json() as {
          status: string;
          session_api_key: string | null;
        }[]
      )[0];
    expect(await through(member.key)).toMatchObject({ status: 'RUNNING', session_api_key: expect.any(String) });
    expect(await through(admin.key)).toMatchObject({ status: 'RUNNING', session_api_key: null });
  });

  it('restart recovery of what a stopped instance left is global work: done by the instance that takes the lock, at its start; one started after does not hold it', async () => {
    const slow = { heartbeatMs: 60_000, quietMs: 30_000 }; // no heartbeat comes during the test
    const gone = await startTestApp({ databaseUrl: database.url, instanceTiming: slow });
    await gone.db
      .insertInto('start_tasks')
      .values(startTaskRecord({ id: 'left-mid-way', status: 'PREPARING_REPOSITORY', owner_instance: gone.services.instances.id }))
      .execute();
    await gone.close();
    const statusOf = async (t: TestApp) =>
      await t.db.selectFrom('start_tasks').select(['status', 'detail']).where('id', '=', 'left-mid-way').executeTakeFirstOrThrow();

    const holder = await instance({ instanceTiming: slow });
    expect(holder.services.instances.holdsGlobalWork).toBe(true);
    expect(await statusOf(holder)).toEqual({
      status: 'ERROR',
      detail: expect.stringMatching(/^Interrupted: the server instance that ran it stopped/),
    });
    const other = await instance({ instanceTiming: slow });
    expect(other.services.instances.holdsGlobalWork).toBe(false);
  });

  it('what an instance that went quiet left mid-way is ended by the one holding the global lock', async () => {
    const a = await instance();
    const b = await instance({ instanceTiming: { heartbeatMs: 100, quietMs: 30_000 } });
    const task = (id: string, owner: string) => startTaskRecord({ id, status: 'PREPARING_REPOSITORY', owner_instance: owner });
    await a.db
      .insertInto('start_tasks')
      .values([task('of-a', a.services.instances.id), task('of-b', b.services.instances.id)])
      .execute();
    // a's heartbeat stops being written (as when its process hangs or its machine goes away)
    await a.services.sandboxes.close();
    await a.db
      .updateTable('server_instances')
      .set({ heartbeat_at: new Date(Date.now() - 60_000).toISOString(), stopped_at: null })
      .where('id', '=', a.services.instances.id)
      .execute();

    const statusOf = async (id: string) =>
      await b.db.selectFrom('start_tasks').select(['status', 'detail']).where('id', '=', id).executeTakeFirstOrThrow();
    await expect
      .poll(() => statusOf('of-a'), { timeout: 10_000 })
      .toEqual({ status: 'ERROR', detail: expect.stringMatching(/^Interrupted: the server instance that ran it stopped/) });
    expect(await statusOf('of-b')).toEqual({ status: 'PREPARING_REPOSITORY', detail: null }); // its own goes on
  });
});
