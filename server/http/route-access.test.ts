import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionKeyCaller } from '../authz/caller';
import { conversationRecord, startTaskRecord } from '../testing/conversation-records';
import { addMember, type TestMember } from '../testing/team-members';
import { startTestApp, TEST_SESSION_KEY, type TestApp } from '../testing/test-app';
import { ConversationsStore } from '../store/conversations-store';
import { EventsStore } from '../store/events-store';
import { StartTasksStore } from '../store/start-tasks-store';
import { routeAccess, routesWithAccessRules } from './route-access';

/*
 * The authorization matrix: every API route the server has × every kind of caller. A route added
 * without a line in route-access.ts fails the first test; each answer is checked in the second:
 * nobody unknown or disabled gets in, members are kept out of admin routes, and a member asking
 * for another member's conversation, sandbox, start task or event is told it does not exist.
 */

let t: TestApp;
let admin: TestMember;
let memberA: TestMember;
let memberB: TestMember;
let disabledKey: string;
let deletedKey: string;
let invitedId: string;
/** Member A's things, which member B must never see. */
const ofA = { sandbox: '', conversation: 'a'.repeat(32), task: 'b'.repeat(32), event: 'event-of-member-a' };

beforeAll(async () => {
  t = await startTestApp();
  admin = await addMember(t, 'admin@example.com', 'admin');
  memberA = await addMember(t, 'a@example.com', 'member');
  memberB = await addMember(t, 'b@example.com', 'member');
  const disabled = await addMember(t, 'gone@example.com', 'member');
  disabledKey = disabled.key;
  await t.services.team.patchMember(sessionKeyCaller, disabled.userId, { status: 'disabled' });
  const deleted = await addMember(t, 'deleted@example.com', 'member');
  deletedKey = deleted.key;
  await t.services.team.deleteMember(sessionKeyCaller, deleted.userId);
  const { successful } = await t.services.team.invite(sessionKeyCaller, ['invited@example.com'], 'member');
  invitedId = successful[0]!.id;

  ofA.sandbox = (await t.services.sandboxes.start(memberA.caller, undefined)).sandbox.id;
  await new ConversationsStore(t.db).insert(conversationRecord({ id: ofA.conversation, user_id: memberA.userId, sandbox_id: ofA.sandbox }));
  await new StartTasksStore(t.db).insert(startTaskRecord({ id: ofA.task, user_id: memberA.userId, app_conversation_id: ofA.conversation }));
  await new EventsStore(t.db).insertNew([
    {
      user_id: memberA.userId,
      conversation_id: ofA.conversation,
      event_id: ofA.event,
      kind: 'MessageEvent',
      source: 'user',
      timestamp: new Date().toISOString(),
      body: JSON.stringify({ id: ofA.event, kind: 'MessageEvent', source: 'user', timestamp: new Date().toISOString() }),
    },
  ]);
});

afterAll(() => t.close());

/** Every API route as "METHOD /path" (every one is in the OpenAPI document: openapi.test.ts holds it). */
async function apiRoutes(): Promise<string[]> {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, object> };
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/'))
    .flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
}

describe('the access table', () => {
  it('names every API route the server has, and no other', async () => {
    expect((await apiRoutes()).sort()).toEqual(routesWithAccessRules().sort());
  });
});

/** The route's path with member A's things for its parameters, and ids of A's in its query. */
function requestFor(route: string): { method: InjectOptions['method']; url: string; payload?: string } {
  const [verb = 'GET', path = ''] = route.split(' ');
  const method = verb as InjectOptions['method'];
  const url = path
    .replace(':sandbox_id', ofA.sandbox)
    .replace(':conversation_id', ofA.conversation)
    .replace(':org_id', 'default')
    .replace(':user_id', invitedId)
    .replace(':key_id', '1')
    .replace(':provider', 'github')
    .replace(':name', 'NOT_A_SECRET');
  const query: Record<string, string> = {
    'GET /api/v1/sandboxes': `?id=${ofA.sandbox}`,
    'DELETE /api/v1/sandboxes': `?sandbox_id=${ofA.sandbox}`,
    'GET /api/v1/app-conversations': `?ids=${ofA.conversation}`,
    'GET /api/v1/app-conversations/start-tasks': `?ids=${ofA.task}`,
    'GET /api/v1/app-conversations/by-sandbox': `?sandbox_id=${ofA.sandbox}`,
    'GET /api/v1/events': `?id=${ofA.event}`,
    'GET /api/v1/events/search': `?conversation_id__eq=${ofA.conversation}`,
    'GET /api/v1/app-conversations/:conversation_id/workspace/diff': '?path=README.md',
    'GET /api/v1/app-conversations/:conversation_id/workspace/file': '?path=README.md',
    // A spec that does not exist: nothing starts, whoever asks.
    'POST /api/v1/sandboxes': '?sandbox_spec_id=no-such-spec',
  };
  // Bodies that are refused once read (422): a caller who may call the route never makes anything.
  const writes = method === 'POST' || method === 'PUT' || method === 'PATCH';
  return { method, url: url + (query[route] ?? ''), ...(writes ? { payload: '{"initial_message": 5, "emails": 5, "key": 5}' } : {}) };
}

/** Routes that would leave the test without what it checks with, or stream without end, when allowed: only refusals are sent. */
const REFUSALS_ONLY = new Set([
  'DELETE /api/v1/sandboxes/:sandbox_id',
  'DELETE /api/v1/sandboxes',
  'DELETE /api/v1/app-conversations/:conversation_id',
  'DELETE /api/conversations/:conversation_id',
  'DELETE /api/organizations/:org_id/members/:user_id',
  'DELETE /api/keys/:key_id',
  'GET /api/v1/app-conversations/:conversation_id/events/stream',
]);

/** Bodies the routes about one thing take, so member B's 404 (and an admin's 403) is about the thing, not the body. */
const VALID_BODIES: Record<string, unknown> = {
  'POST /api/v1/app-conversations/:conversation_id/send-message': { role: 'user', content: [{ type: 'text', text: 'hello' }] },
  'POST /api/v1/app-conversations/:conversation_id/confirm': { accept: true },
  'PATCH /api/v1/app-conversations/:conversation_id': { title: 'Taken' },
  'PATCH /api/conversations/:conversation_id': { title: 'Taken' },
};

/**
 * What only a conversation's owner may do, whoever else may see it: these run with the owner's
 * secrets, or read a workspace that may hold them. Owners and admins are refused, saying why.
 */
const OWNER_OF_IT_ONLY = new Set([
  'POST /api/v1/app-conversations/:conversation_id/send-message',
  'POST /api/v1/app-conversations/:conversation_id/confirm',
  'POST /api/v1/app-conversations/:conversation_id/run',
  'POST /api/v1/app-conversations/:conversation_id/continue-in-new-sandbox',
  'POST /api/v1/app-conversations/:conversation_id/continue-in-new-sandbox/stream',
  'GET /api/v1/app-conversations/:conversation_id/workspace/changes',
  'GET /api/v1/app-conversations/:conversation_id/workspace/diff',
  'GET /api/v1/app-conversations/:conversation_id/workspace/files',
  'GET /api/v1/app-conversations/:conversation_id/workspace/file',
  'GET /api/v1/app-conversations/:conversation_id/workspace/archive',
]);

/** Routes about one of member A's things: member B is told it does not exist. */
const ABOUT_A_THING = /:sandbox_id|:conversation_id/;

describe('every route × every caller', () => {
  const callers = () => ({
    'no key': {},
    'a wrong key': { 'x-session-api-key': 'sk-oh-wrongwrongwrongwrongwrongwrongwron' },
    'a disabled user': { 'x-session-api-key': disabledKey },
    'a deleted user': { 'x-session-api-key': deletedKey },
    owner: { 'x-session-api-key': TEST_SESSION_KEY },
    admin: { authorization: `Bearer ${admin.key}` },
    'member A': { 'x-session-api-key': memberA.key },
    'member B': { 'x-session-api-key': memberB.key },
  });

  it('answers each as its rule says', async () => {
    const problems: string[] = [];
    for (const route of routesWithAccessRules()) {
      const rule = routeAccess(route.split(' ')[0]!, route.split(' ')[1]);
      for (const [who, headers] of Object.entries(callers())) {
        const signedIn = who === 'owner' || who === 'admin' || who.startsWith('member');
        const allowed = signedIn && rule !== 'sandbox' && (rule !== 'admin' || who === 'owner' || who === 'admin');
        if (allowed && REFUSALS_ONLY.has(route) && who !== 'member B') continue;
        const request = requestFor(route);
        const admin = who === 'owner' || who === 'admin';
        const ownersOnly = admin && OWNER_OF_IT_ONLY.has(route);
        if ((who === 'member B' || ownersOnly) && route in VALID_BODIES) request.payload = JSON.stringify(VALID_BODIES[route]);
        const response = await t.app.inject({
          ...request,
          headers: { ...headers, ...(request.payload ? { 'content-type': 'application/json' } : {}) },
        });
        const status = response.statusCode;
        const expected = !signedIn || rule === 'sandbox' ? [401] : !allowed || ownersOnly ? [403] : undefined;
        if (expected && !expected.includes(status)) problems.push(`${route} as ${who}: ${status}, expected ${expected.join(' or ')}`);
        if (allowed && !ownersOnly && (status === 401 || status === 403)) problems.push(`${route} as ${who}: refused with ${status}`);
        if (ownersOnly && !/Only the conversation's owner/.test(response.body)) {
          problems.push(`${route} as ${who}: the refusal does not say why: ${response.body}`);
        }
        if (status === 500) problems.push(`${route} as ${who}: ${status} ${response.body}`);
        if (who === 'member B' && allowed) {
          if (ABOUT_A_THING.test(route) && status !== 404) problems.push(`${route} as member B: ${status}, expected 404 for member A's`);
          // An id the request itself named may come back (a batch's order); any other of member A's may not.
          for (const id of Object.values(ofA).filter((id) => !request.url.includes(id))) {
            if (status < 300 && response.body.includes(id)) problems.push(`${route} as member B: the response names member A's ${id}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it("leaves member A's things where they were after member B tried everything", async () => {
    const [sandbox] = await t.services.sandboxes.getMany(sessionKeyCaller, [ofA.sandbox]);
    expect(sandbox?.status).toBe('RUNNING');
    expect(await t.services.conversations.getMany(sessionKeyCaller, [ofA.conversation])).toEqual([
      expect.objectContaining({ id: ofA.conversation }),
    ]);
  });

  it('lets member A and admins see what is member A’s', async () => {
    for (const key of [memberA.key, admin.key, TEST_SESSION_KEY]) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/sandboxes?id=${ofA.sandbox}`,
        headers: { 'x-session-api-key': key },
      });
      expect(response.json()).toEqual([expect.objectContaining({ id: ofA.sandbox, created_by_user_id: memberA.userId })]);
      const conversations = await t.app.inject({
        method: 'GET',
        url: `/api/v1/app-conversations?ids=${ofA.conversation}`,
        headers: { 'x-session-api-key': key },
      });
      expect(conversations.json()).toEqual([expect.objectContaining({ id: ofA.conversation, created_by_user_id: memberA.userId })]);
    }
  });
});
