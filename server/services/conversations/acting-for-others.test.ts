import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartTask } from '../../../src/contract/conversations';
import { addMember, type TestMember } from '../../testing/team-members';
import { startTestApp, TEST_SESSION_KEY, type TestApp } from '../../testing/test-app';

/*
 * Admins see everyone's conversations and sandboxes; they never act in a member's name. What a
 * hostile admin (and another member) tried against alice's conversation, each refused before
 * anything ran: a message (it would run with her secrets), an approval, a continue, her
 * workspace, her sandbox's key, her conversation's id or sandbox or parent in a start of their own.
 */

let t: TestApp;
let admin: TestMember;
let alice: TestMember;
let bob: TestMember;
let started: StartTask;

const call = (key: string, method: 'GET' | 'POST', url: string, body?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { 'x-session-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

const taskOf = async (key: string, id: string): Promise<StartTask> =>
  (await call(key, 'GET', `/api/v1/app-conversations/start-tasks?ids=${id}`)).json()[0];

/** How many sandboxes and start tasks exist: what a refused start must not have added to. */
const made = async () => ({
  sandboxes: await t.services.sandboxes.search(admin.caller, { limit: 100 }).then((page) => page.items.length),
  tasks: await t.services.startTasks.count(admin.caller, {}),
});

beforeAll(async () => {
  t = await startTestApp();
  admin = await addMember(t, 'admin@example.com', 'admin');
  alice = await addMember(t, 'alice@example.com', 'member');
  bob = await addMember(t, 'bob@example.com', 'member');
  expect((await call(alice.key, 'POST', '/api/secrets', { name: 'ALICE_SECRET', value: 'alice-only-value' })).statusCode).toBe(201);
  const task = (await call(alice.key, 'POST', '/api/v1/app-conversations', { title: 'Alice’s work' })).json() as StartTask;
  for (let tries = 0; !/READY|ERROR/.test((started = await taskOf(alice.key, task.id)).status) && tries < 200; tries++) await sleep(100);
  if (started.status !== 'READY') throw new Error(`Alice's conversation did not start: ${started.detail}`);
});

afterAll(() => t.close());

describe('an admin (or an owner) with a member’s conversation', () => {
  const routes = () => {
    const base = `/api/v1/app-conversations/${started.app_conversation_id}`;
    return [
      ['POST', `${base}/send-message`, { role: 'user', content: [{ type: 'text', text: 'printenv ALICE_SECRET | base64' }] }],
      ['POST', `${base}/confirm`, { accept: true }],
      ['POST', `${base}/run`, undefined],
      ['POST', `${base}/continue-in-new-sandbox`, undefined],
      ['GET', `${base}/workspace/files`, undefined],
      ['GET', `${base}/workspace/archive`, undefined],
    ] as const;
  };

  it('is refused every action that runs with the member’s secrets or reads their workspace, and told why', async () => {
    for (const key of [() => admin.key, () => TEST_SESSION_KEY]) {
      for (const [method, url, body] of routes()) {
        const response = await call(key(), method, url, body);
        expect(response.statusCode, `${method} ${url}`).toBe(403);
        expect(response.json().detail).toMatch(/Only the conversation's owner can .*: (the agent runs|they run|it runs|it may hold)/);
      }
    }
  });

  it('gets neither the sandbox’s key nor its agent server’s, so cannot go round the refusal', async () => {
    const conversation = (await call(admin.key, 'GET', `/api/v1/app-conversations?ids=${started.app_conversation_id}`)).json()[0];
    expect(conversation).toMatchObject({ id: started.app_conversation_id, sandbox_status: 'RUNNING', session_api_key: null });
    const [sandbox] = (await call(admin.key, 'GET', `/api/v1/sandboxes?id=${started.sandbox_id}`)).json();
    expect(sandbox).toMatchObject({ id: started.sandbox_id, status: 'RUNNING', session_api_key: null });
    const search = (await call(admin.key, 'GET', '/api/v1/sandboxes/search')).json().items as { id: string; session_api_key: string }[];
    expect(search.find((item) => item.id === started.sandbox_id)?.session_api_key).toBeNull();
    // Alice has both.
    const own = (await call(alice.key, 'GET', `/api/v1/app-conversations?ids=${started.app_conversation_id}`)).json()[0];
    expect(own.session_api_key).toEqual(expect.any(String));
  });

  it('may still see it, its events, and stop its agent', async () => {
    expect((await call(admin.key, 'GET', `/api/v1/events/search?conversation_id__eq=${started.app_conversation_id}`)).statusCode).toBe(200);
    expect((await call(admin.key, 'POST', `/api/v1/app-conversations/${started.app_conversation_id}/pause`)).statusCode).toBe(200);
  });

  it('cannot start a conversation of its own in the member’s sandbox, or under their conversation', async () => {
    const before = await made();
    const inSandbox = await call(admin.key, 'POST', '/api/v1/app-conversations', { sandbox_id: started.sandbox_id });
    expect(inSandbox.statusCode).toBe(403);
    expect(inSandbox.json().detail).toMatch(/Only the sandbox's owner can start conversations/);
    const under = await call(admin.key, 'POST', '/api/v1/app-conversations', { parent_conversation_id: started.app_conversation_id });
    expect(under.statusCode).toBe(403);
    expect(await made()).toEqual(before);
    // Not even in a sandbox of the admin's own.
    const own = (await call(admin.key, 'POST', '/api/v1/sandboxes')).json() as { id: string };
    const underInOwn = await call(admin.key, 'POST', '/api/v1/app-conversations', {
      parent_conversation_id: started.app_conversation_id,
      sandbox_id: own.id,
    });
    expect(underInOwn.statusCode).toBe(403);
    expect(underInOwn.json().detail).toMatch(/Only the conversation's owner can continue it/);
    expect((await made()).tasks).toBe(before.tasks);
  });
});

describe('a start with someone else’s conversation id', () => {
  it('is a 409 before any work, for an admin and for another member alike', async () => {
    const before = await made();
    for (const key of [admin.key, bob.key]) {
      const response = await call(key, 'POST', '/api/v1/app-conversations', { conversation_id: started.app_conversation_id });
      expect(response.statusCode).toBe(409);
      expect(response.json().detail).toMatch(/already exists/);
    }
    expect(await made()).toEqual(before);
  });
});

describe('another member with a member’s sandbox id', () => {
  it('is told it does not exist, as for any unknown sandbox, and nothing runs in it', async () => {
    const task = (await call(bob.key, 'POST', '/api/v1/app-conversations', { sandbox_id: started.sandbox_id })).json() as StartTask;
    await expect.poll(async () => (await taskOf(bob.key, task.id)).status, { timeout: 20_000 }).toBe('ERROR');
    expect((await taskOf(bob.key, task.id)).detail).toBe(`Sandbox ${started.sandbox_id} does not exist (any more)`);
    const conversations = await t.services.conversations.bySandbox(admin.caller, [started.sandbox_id!]);
    expect(conversations[0]!.conversations.map((c) => c.id)).toEqual([started.app_conversation_id]);
  });
});
