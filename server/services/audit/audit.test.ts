import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { builtServerScript } from '../../testing/built-server';
import { sql } from 'kysely';
import type { AuditLog, AuditLogPage, AuditVerification } from '../../../src/contract/audit';
import { sessionKeyCaller } from '../../authz/caller';
import { createLogger } from '../../logger';
import { AuditLogStore } from '../../store/audit-log-store';
import { BrowserSessionsStore } from '../../store/browser-sessions-store';
import { MetaStore } from '../../store/meta-store';
import { startOpenAiStub, type OpenAiStub } from '../../testing/openai-stub';
import { BrowserSessions } from '../sessions/browser-sessions';
import { databasesUnderTest, onlyPostgres } from '../../testing/databases';
import { addMember } from '../../testing/team-members';
import { conversationRecord } from '../../testing/conversation-records';
import { startTestApp, TEST_SESSION_KEY, type TestApp, type TestAppOptions } from '../../testing/test-app';
import { AuditService } from './audit-service';

const apps: TestApp[] = [];
const stubs: OpenAiStub[] = [];
afterEach(async () => {
  for (const t of apps.splice(0).reverse()) await t.close();
  for (const stub of stubs.splice(0)) await stub.close();
});

async function app(options: TestAppOptions = {}) {
  const t = await startTestApp(options);
  apps.push(t);
  return t;
}

const get = (t: TestApp, url: string, key = TEST_SESSION_KEY) =>
  t.app.inject({ method: 'GET', url, headers: { 'x-session-api-key': key } });
const entries = async (t: TestApp, q = '') =>
  (await get(t, `/api/audit-logs?limit=500&q=${encodeURIComponent(q)}`)).json<AuditLogPage>().audit_logs;
const verify = async (t: TestApp) => (await get(t, '/api/audit-logs/verify')).json<AuditVerification>();

const signIn = (t: TestApp, email: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/sign-in',
    remoteAddress: '10.1.2.3',
    headers: { origin: 'http://localhost', host: 'localhost', 'content-type': 'application/json' },
    payload: JSON.stringify({ email, password }),
  });

/** A browser's request with `cookie`, from a page of the server. */
const asBrowser = (t: TestApp, cookie: string, method: 'GET' | 'POST', url: string, body?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: {
      cookie,
      origin: 'http://localhost',
      host: 'localhost',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

/** The session cookie a sign-in's response sets, as a browser sends it back. */
function cookieOf(response: { statusCode: number; body: string; headers: Record<string, unknown> }): string {
  expect(response.statusCode, response.body).toBe(200);
  return String(response.headers['set-cookie']).split(';')[0]!;
}

const signInWithKey = (t: TestApp, key: string) =>
  t.app.inject({
    method: 'POST',
    url: '/sign-in',
    headers: { origin: 'http://localhost', host: 'localhost', 'content-type': 'application/json' },
    payload: JSON.stringify({ key }),
  });

/** The browser sessions of `t`'s database as another instance would end them, at `now`. */
const sessionsAt = (t: TestApp, now: Date) =>
  new BrowserSessions(new MetaStore(t.db), new BrowserSessionsStore(t.db), t.services.audit, createLogger(false), () => now);

describe.each(databasesUnderTest())('audit log on %s', (database) => {
  it('records sign-ins with who, how, from where and why a refused one was, and role changes with before and after', async () => {
    const t = await app({ database });
    const member = await addMember(t, 'm@example.com', 'member', 'the right password');
    expect((await signIn(t, 'm@example.com', 'a wrong password')).statusCode).toBe(401);
    expect((await signIn(t, 'nobody@example.com', 'a wrong password')).statusCode).toBe(401);
    expect((await signIn(t, 'm@example.com', 'the right password')).statusCode).toBe(200);
    const patched = await t.request({
      method: 'PATCH',
      url: `/api/organizations/default/members/${member.userId}`,
      payload: JSON.stringify({ role: 'admin', max_sandboxes: 3 }),
      headers: { 'content-type': 'application/json' },
    });
    expect(patched.statusCode).toBe(200);

    const logins = await entries(t, 'action:login');
    expect(logins.map((e) => [e.result, e.reason, e.user_id, e.user_name, e.auth_method, e.ip])).toEqual([
      ['done', null, member.userId, 'm@example.com', 'password', '10.1.2.3'],
      ['refused', 'No user with this email', null, 'nobody@example.com', 'password', '10.1.2.3'],
      ['refused', 'Wrong password', member.userId, 'm@example.com', 'password', '10.1.2.3'],
    ]);
    const [roleChange] = await entries(t, `resource_type:user action:write resource_id:${member.userId}`);
    expect(roleChange).toMatchObject({
      user_id: 'default',
      auth_method: 'session_key',
      resource_target: 'm@example.com',
      result: 'done',
      diff: {
        role: { old: 'member', new: 'admin', secret: false },
        max_sandboxes: { old: null, new: 3, secret: false },
      },
    });
    expect(Object.keys(roleChange!.diff)).toEqual(['role', 'max_sandboxes']);
    // The invitation, its acceptance and the member's API key (by name) are there too.
    expect((await entries(t, 'resource_type:invitation')).map((e) => e.action)).toEqual(['register', 'create']);
    expect(await entries(t, 'resource_type:api_key')).toMatchObject([
      { action: 'create', resource_target: 'tests', diff: { name: { old: null, new: 'tests' } } },
    ]);
    // The role change ended the session the sign-in gave.
    expect(await entries(t, 'action:end')).toMatchObject([
      { resource_id: member.userId, user_id: 'default', reason: 'Their role changed' },
    ]);
    expect(await verify(t)).toEqual({ ok: true, checked: 8, broken_at: null, anchor_seq: null });
  });

  it('names the API key a request came with, and keeps secrets to their names', async () => {
    const t = await app({ database });
    const member = await addMember(t, 'k@example.com', 'member');
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: { 'x-session-api-key': member.key, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'second' }),
    });
    const { id, key } = made.json<{ id: number; key: string }>();
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/keys/${id}`, headers: { 'x-session-api-key': member.key } });
    expect(deleted.statusCode).toBe(200);
    const [removed, created, firstUse] = await entries(t, 'resource_type:api_key username:k@example.com');
    expect(removed).toMatchObject({ action: 'delete', resource_id: String(id), resource_target: 'second', api_key_name: 'tests' });
    expect(created).toMatchObject({ action: 'create', auth_method: 'api_key', api_key_name: 'tests' });
    expect(firstUse).toMatchObject({ action: 'first_use', resource_target: 'tests' });
    expect(await t.databaseText()).not.toContain(key);
  });

  it('records settings, MCP servers, git tokens and custom secrets with secrets by name only', async () => {
    const t = await app({ database });
    const json = { 'content-type': 'application/json' };
    await t.postSettings({ llm_model: 'openai/gpt-4o', llm_api_key: 'sk-the-llm-key-value' });
    await t.postSettings({
      llm_model: 'anthropic/claude-sonnet-4-5-20250929',
      mcp_config: {
        sse_servers: [],
        shttp_servers: [],
        stdio_servers: [{ name: 'files', command: 'npx', args: [], env: { TOKEN: 'env-secret-value' } }],
      },
    });
    await t.request({
      method: 'POST',
      url: '/api/secrets',
      headers: json,
      payload: JSON.stringify({ name: 'DEPLOY', value: 'custom-secret-value' }),
    });
    await t.request({
      method: 'POST',
      url: '/api/add-git-providers',
      headers: json,
      payload: JSON.stringify({ provider_tokens: { github: { token: 'ghp_token_value', host: null } } }),
    });

    const all = await entries(t);
    expect(all.map((e) => [e.action, e.resource_type, e.resource_target])).toEqual([
      ['write', 'git_token', null],
      ['create', 'secret', 'DEPLOY'],
      ['write', 'mcp_server', null],
      ['write', 'settings', null],
      ['write', 'settings', null],
    ]);
    expect(all[4]!.diff).toMatchObject({
      llm_model: { old: null, new: 'openai/gpt-4o', secret: false },
      llm_api_key: { old: null, new: null, secret: true },
    });
    expect(all[3]!.diff).toEqual({ llm_model: { old: 'openai/gpt-4o', new: 'anthropic/claude-sonnet-4-5-20250929', secret: false } });
    expect(all[2]!.diff).toEqual({ 'stdio files': { old: null, new: 'stdio files', secret: false } });
    expect(all[1]!.diff).toMatchObject({ value: { old: null, new: null, secret: true } });
    expect(all[0]!.diff).toEqual({
      'github.host': { old: null, new: '(public)', secret: false },
      'github.token': { old: null, new: null, secret: true },
    });
    const text = JSON.stringify(all);
    for (const value of ['sk-the-llm-key-value', 'env-secret-value', 'custom-secret-value', 'ghp_token_value'])
      expect(text).not.toContain(value);
  });

  it("records an API key's first use once, with where it came from; later uses are its last use", async () => {
    const t = await app({ database });
    const member = await addMember(t, 'k@example.com', 'member');
    const use = () =>
      t.app.inject({ method: 'GET', url: '/api/keys', remoteAddress: '10.9.8.7', headers: { 'x-session-api-key': member.key } });
    // Several at once, then again: one entry.
    for (const response of await Promise.all([use(), use(), use(), use()])) expect(response.statusCode).toBe(200);
    expect((await use()).statusCode).toBe(200);
    const used = await entries(t, 'action:first_use');
    expect(used).toHaveLength(1);
    expect(used[0]).toMatchObject({
      user_id: member.userId,
      user_name: 'k@example.com',
      auth_method: 'api_key',
      api_key_name: 'tests',
      ip: '10.9.8.7',
      resource_type: 'api_key',
      resource_target: 'tests',
      result: 'done',
      diff: { last_used_at: { old: null, secret: false } },
    });
    const lastUsed = (await use()).json<{ last_used_at: string }[]>()[0]!.last_used_at;
    expect(used[0]!.diff.last_used_at!.new).toBe(lastUsed);
  });

  it('records the end of each browser session once: by whoever ended it, and why', async () => {
    const t = await app({ database });
    const member = await addMember(t, 'm@example.com', 'member', 'the right password');
    const [laptop, phone] = [
      cookieOf(await signIn(t, 'm@example.com', 'the right password')),
      cookieOf(await signIn(t, 'm@example.com', 'the right password')),
    ];
    // Signing out on one signs both out.
    expect((await asBrowser(t, laptop, 'POST', '/sign-out')).statusCode).toBe(200);
    // The ended cookie, sent again and again, ends nothing more.
    for (let i = 0; i < 3; i++) expect((await asBrowser(t, phone, 'GET', '/api/keys')).statusCode).toBe(401);

    const desk = cookieOf(await signIn(t, 'm@example.com', 'the right password'));
    const changed = await asBrowser(t, desk, 'POST', '/change-password', {
      current_password: 'the right password',
      new_password: 'another long password',
    });
    // Its browser gets a new session; the role change ends it.
    const newDesk = cookieOf(changed);
    expect((await asBrowser(t, newDesk, 'GET', '/api/keys')).statusCode).toBe(200);
    const patch = (body: unknown) =>
      t.request({
        method: 'PATCH',
        url: `/api/organizations/default/members/${member.userId}`,
        payload: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
    expect((await patch({ role: 'admin' })).statusCode).toBe(200);
    cookieOf(await signIn(t, 'm@example.com', 'another long password'));
    expect((await patch({ status: 'disabled' })).statusCode).toBe(200);
    expect((await patch({ status: 'active' })).statusCode).toBe(200);
    cookieOf(await signIn(t, 'm@example.com', 'another long password'));
    expect((await t.request({ method: 'DELETE', url: `/api/organizations/default/members/${member.userId}` })).statusCode).toBe(200);

    const ends = (await entries(t, 'action:end resource_type:session')).reverse();
    expect(ends.map((e) => [e.user_id, e.resource_id, e.resource_target, e.reason])).toEqual([
      [member.userId, member.userId, 'm@example.com', 'Signed out'],
      [member.userId, member.userId, 'm@example.com', 'Signed out'],
      [member.userId, member.userId, 'm@example.com', 'The password was changed'],
      ['default', member.userId, 'm@example.com', 'Their role changed'],
      ['default', member.userId, 'm@example.com', 'The user was disabled'],
      ['default', member.userId, 'm@example.com', 'The user was deleted'],
    ]);
    expect(ends[0]!.diff).toMatchObject({ issued_at: { old: expect.any(String), new: null }, expires_at: { new: null } });
    expect(await t.db.selectFrom('browser_sessions').selectAll().execute()).toEqual([]);
    expect(await verify(t)).toMatchObject({ ok: true });
  });

  it('records a session ended with the API key it was signed in with, and sessions ended by their time, once', async () => {
    const t = await app({ database });
    const member = await addMember(t, 'k@example.com', 'member', 'the right password');
    const makeKey = async (body: object) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/keys',
          headers: { 'x-session-api-key': member.key, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        })
      ).json<{ id: number; key: string }>();
    const lasting = await makeKey({ name: 'lasting' });
    const brief = await makeKey({ name: 'brief', expires_at: new Date(Date.now() + 60 * 60 * 1000).toISOString() });
    cookieOf(await signInWithKey(t, lasting.key));
    cookieOf(await signInWithKey(t, brief.key));
    cookieOf(await signIn(t, 'k@example.com', 'the right password'));
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/keys/${lasting.id}`, headers: { 'x-session-api-key': member.key } });
    expect(deleted.statusCode).toBe(200);

    // An hour and a half on, the brief key's session is over; twelve hours on, the password's.
    const hours = (n: number) => new Date(Date.now() + n * 60 * 60 * 1000);
    expect(await sessionsAt(t, hours(1.5)).endExpired()).toBe(1);
    expect(await sessionsAt(t, hours(1.5)).endExpired()).toBe(0);
    // Two instances at once: one of them records it.
    expect(await Promise.all([sessionsAt(t, hours(13)).endExpired(), sessionsAt(t, hours(13)).endExpired()])).toEqual(
      expect.arrayContaining([0, 1]),
    );

    const ends = (await entries(t, 'action:end')).reverse();
    expect(ends.map((e) => [e.user_id, e.auth_method, e.resource_id, e.resource_target, e.reason])).toEqual([
      [member.userId, 'api_key', member.userId, 'k@example.com', 'The API key it was signed in with was deleted'],
      [null, 'server', member.userId, 'k@example.com', 'The API key it was signed in with expired'],
      [null, 'server', member.userId, 'k@example.com', 'Expired'],
    ]);
    expect(await t.db.selectFrom('browser_sessions').selectAll().execute()).toEqual([]);
  });

  // Two sandboxes started and two agent runs awaited, each within a wait of its own: on a busy machine, over 20 s together.
  it('records a conversation continued: a message to its finished agent, and in a new sandbox; and its delete', async () => {
    const llm = await startOpenAiStub([{ text: 'Done.' }, { text: 'Done again.' }]);
    stubs.push(llm);
    const t = await app({ database });
    expect((await t.postSettings({ llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl, llm_api_key: 'sk-test' })).statusCode).toBe(
      200,
    );
    const json = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
      t.request({
        method,
        url,
        ...(body === undefined ? {} : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
    const message = (text: string) => ({ role: 'user', content: [{ type: 'text', text }], run: true });
    const ready = async (taskId: string) =>
      vi.waitFor(
        async () => {
          const [task] = (await json('GET', `/api/v1/app-conversations/start-tasks?ids=${taskId}`)).json<
            { status: string; app_conversation_id: string }[]
          >();
          expect(task!.status).toBe('READY');
          return task!;
        },
        { timeout: 20_000 },
      );
    const conversation = async (id: string) =>
      (await json('GET', `/api/v1/app-conversations?ids=${id}`)).json<{ execution_status: string; sandbox_id: string }[]>()[0]!;
    const started = await json('POST', '/api/v1/app-conversations', { title: 'Notes', initial_message: message('Write notes.') });
    const id = (await ready(started.json<{ id: string }>().id)).app_conversation_id;
    // Should the agent stop on an error instead, the failure says which.
    const errors = async () =>
      JSON.stringify(
        (await json('GET', `/api/v1/events/search?conversation_id__eq=${id}&limit=100`))
          .json<{ items: { kind: string }[] }>()
          .items.filter((event) => event.kind === 'ConversationErrorEvent'),
      );
    await vi.waitFor(
      async () => {
        const status = (await conversation(id)).execution_status;
        expect(status, status === 'error' ? await errors() : undefined).toBe('finished');
      },
      { timeout: 20_000 },
    );

    expect((await json('POST', `/api/v1/app-conversations/${id}/send-message`, message('Go on.'))).statusCode).toBe(200);
    await vi.waitFor(() => expect(llm.requests).toHaveLength(2), { timeout: 20_000 });
    expect((await json('DELETE', `/api/v1/sandboxes/${(await conversation(id)).sandbox_id}`)).statusCode).toBe(200);
    const continued = await json('POST', `/api/v1/app-conversations/${id}/continue-in-new-sandbox`);
    expect(continued.statusCode, continued.body).toBe(200);
    await ready(continued.json<{ id: string }>().id);
    expect((await json('DELETE', `/api/v1/app-conversations/${id}`)).statusCode).toBe(200);

    const recorded = (await entries(t, 'resource_type:conversation')).reverse();
    expect(recorded.map((e) => [e.action, e.result, e.resource_id, e.resource_target, e.reason])).toEqual([
      ['create', 'done', id, 'Notes', null],
      ['resume', 'done', id, 'Notes', 'A message to its stopped agent'],
      ['resume', 'done', id, 'Notes', expect.stringMatching(/^In a new sandbox: its own \(\w+\) was gone or failed$/)],
      ['delete', 'done', id, 'Notes', null],
    ]);
    expect(recorded[1]!.diff).toEqual({ execution_status: { old: 'finished', new: 'running', secret: false } });
  }, 90_000);

  it('finds the entry someone changed or removed in the database', async () => {
    const t = await app({ database });
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) await signIn(t, email, 'not a password at all');
    expect(await verify(t)).toMatchObject({ ok: true, checked: 3 });

    await t.db.updateTable('audit_log').set({ reason: 'Nothing happened' }).where('seq', '=', 2).execute();
    expect(await verify(t)).toMatchObject({ ok: false, checked: 1, broken_at: { seq: 2, problem: 'changed' } });

    // Changed with its hash made anew: the next entry no longer links to it.
    const row = await t.db.selectFrom('audit_log').selectAll().where('seq', '=', 2).executeTakeFirstOrThrow();
    const { entryHash } = await import('../../store/audit-chain');
    await t.db
      .updateTable('audit_log')
      .set({ hash: entryHash(row) })
      .where('seq', '=', 2)
      .execute();
    expect(await verify(t)).toMatchObject({ ok: false, checked: 2, broken_at: { seq: 3, problem: 'unlinked' } });

    await t.db.deleteFrom('audit_log').where('seq', '=', 2).execute();
    expect(await verify(t)).toMatchObject({ ok: false, checked: 1, broken_at: { seq: 2, id: null, problem: 'missing' } });
  });

  it('is for owners and admins only: a member is refused the log, its export and its check', async () => {
    const t = await app({ database });
    const member = await addMember(t, 'm@example.com', 'member');
    const admin = await addMember(t, 'a@example.com', 'admin');
    for (const url of ['/api/audit-logs', '/api/audit-logs/export?format=csv', '/api/audit-logs/verify']) {
      expect((await get(t, url, member.key)).statusCode).toBe(403);
      expect((await get(t, url, admin.key)).statusCode).toBe(200);
    }
    // Below the routes too.
    await expect(t.services.audit.page(member.caller, undefined)).rejects.toThrow('Only owners and admins');
  });

  it('records what the policy refused: an admin changing an owner, or messaging a member’s agent', async () => {
    const t = await app({ database });
    const owner = await addMember(t, 'o@example.com', 'owner');
    const admin = await addMember(t, 'a@example.com', 'admin');
    const member = await addMember(t, 'm@example.com', 'member');
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/organizations/default/members/${owner.userId}`,
      headers: { 'x-session-api-key': admin.key, 'content-type': 'application/json' },
      payload: JSON.stringify({ role: 'member' }),
    });
    expect(patch.statusCode).toBe(403);
    await t.db
      .insertInto('app_conversations')
      .values(conversationRecord({ id: 'c0ffee00c0ffee00c0ffee00c0ffee00', user_id: member.userId, title: 'theirs' }))
      .execute();
    const message = await t.app.inject({
      method: 'POST',
      url: '/api/v1/app-conversations/c0ffee00c0ffee00c0ffee00c0ffee00/send-message',
      headers: { 'x-session-api-key': admin.key, 'content-type': 'application/json' },
      payload: JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'printenv' }] }),
    });
    expect(message.statusCode).toBe(403);

    const refused = await entries(t, 'result:refused');
    expect(refused.map((e) => [e.user_id, e.action, e.resource_type, e.resource_id])).toEqual([
      [admin.userId, 'write', 'conversation', 'c0ffee00c0ffee00c0ffee00c0ffee00'],
      [admin.userId, 'write', 'user', owner.userId],
    ]);
    expect(refused[1]!.reason).toContain('Only an owner can change an owner');
    expect(refused[0]!.reason).toBe(
      `conversation message of user ${member.userId}'s: Only the conversation's owner can send its agent a message: the agent runs with their secrets`,
    );
  });

  it('pages with a count, filters by q (422 for a filter it does not know), and exports as JSON and CSV', async () => {
    const t = await app({ database });
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) await signIn(t, email, 'not a password at all');
    const page = (await get(t, '/api/audit-logs?limit=2&offset=1')).json<AuditLogPage>();
    expect(page.count).toBe(3);
    expect(page.audit_logs.map((e) => e.user_name)).toEqual(['b@example.com', 'a@example.com']);
    expect((await entries(t, 'username:B@example.com result:refused')).map((e) => e.user_name)).toEqual(['b@example.com']);
    expect(await entries(t, 'result:done')).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await entries(t, `date_from:${today} date_to:${today}`)).toHaveLength(3);
    expect(await entries(t, 'date_to:2000-01-01')).toHaveLength(0);

    const bad = await get(t, '/api/audit-logs?q=colour:blue');
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ detail: [{ loc: ['query', 'q'] }] });

    const json = await get(t, '/api/audit-logs/export?q=username:a@example.com');
    expect(json.headers['content-disposition']).toBe('attachment; filename="audit-log.json"');
    expect(json.json<AuditLog[]>().map((e) => e.user_name)).toEqual(['a@example.com']);
    const csv = await get(t, '/api/audit-logs/export?format=csv');
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^time,seq,id,user_id,user_name,/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(',c@example.com,password,,10.1.2.3,login,session,,c@example.com,refused,No user with this email,{},');
  });

  it('prunes what is older than its retention, records that, and the chain still holds from the anchor', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const clock = () => now;
    const t = await app({ database, clock });
    for (const email of ['a@example.com', 'b@example.com']) await signIn(t, email, 'not a password at all');
    now = new Date('2026-03-01T00:00:00Z');
    await signIn(t, 'c@example.com', 'not a password at all');
    const audit = new AuditService(new AuditLogStore(t.db, clock), createLogger(false), 30, clock);

    expect(await audit.prune()).toBe(2);
    expect(await audit.prune()).toBe(0);
    const left = await entries(t);
    expect(left.map((e) => [e.seq, e.action, e.user_name])).toEqual([
      [4, 'prune', null],
      [3, 'login', 'c@example.com'],
    ]);
    expect(left[0]).toMatchObject({
      auth_method: 'server',
      diff: {
        removed_entries: { old: 2, new: null },
        removed_from_seq: { old: 1, new: null },
        removed_oldest_time: { old: '2026-01-01T00:00:00.000Z', new: null },
        removed_newest_time: { old: '2026-01-01T00:00:00.000Z', new: null },
        chain_starts_after_seq: { old: null, new: 2 },
      },
    });
    expect(await verify(t)).toEqual({ ok: true, checked: 2, broken_at: null, anchor_seq: 2 });
    // The anchor is part of what is checked: an entry written in place of a pruned one does not fit.
    await t.db
      .updateTable('audit_log')
      .set({ prev_hash: '0'.repeat(64) })
      .where('seq', '=', 3)
      .execute();
    expect(await verify(t)).toMatchObject({ ok: false, broken_at: { seq: 3, problem: 'unlinked' } });
  });

  it('keeps one chain while many entries are written at once', async () => {
    const t = await app({ database });
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.services.audit.record(sessionKeyCaller, { action: 'write', resourceType: 'settings', resourceTarget: `n${i}` }),
      ),
    );
    expect(await verify(t)).toMatchObject({ ok: true, checked: 40 });
  });
});

/** `npm run audit:verify` as built, on the app's database: its exit code and what it printed. */
async function verifyCommand(t: TestApp): Promise<{ code: number; output: string }> {
  const env = { ...process.env, DATA_DIR: t.dataDir, DATABASE_URL: t.databaseUrl ?? '' };
  return promisify(execFile)(process.execPath, [builtServerScript('audit-verify')], { env }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout || error.stderr }),
  );
}

describe.each(databasesUnderTest())('npm run audit:verify on %s', (database) => {
  it('says the chain holds, or which entry does not (exit 1)', async () => {
    const t = await app({ database });
    for (const email of ['a@example.com', 'b@example.com']) await signIn(t, email, 'not a password at all');
    expect(await verifyCommand(t)).toEqual({ code: 0, output: 'The audit log holds: 2 entries checked.\n' });
    const { id } = await t.db.selectFrom('audit_log').select('id').where('seq', '=', 2).executeTakeFirstOrThrow();
    await t.db.updateTable('audit_log').set({ ip: '192.0.2.1' }).where('seq', '=', 2).execute();
    expect(await verifyCommand(t)).toEqual({
      code: 1,
      output: `The audit log does not hold: entry 2 (${id}) was changed; 1 entries before it hold.\n`,
    });
  });
});

describe.each(onlyPostgres())('audit log of two instances on one %s database', (database) => {
  it('is one chain both write to', async () => {
    const first = await app({ database, listen: true });
    const second = await app({ databaseUrl: first.databaseUrl, listen: true });
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? first : second).services.audit.record(sessionKeyCaller, {
          action: 'write',
          resourceType: 'settings',
          resourceTarget: `n${i}`,
        }),
      ),
    );
    expect(await verify(first)).toMatchObject({ ok: true, checked: 60 });
    const seqs = await sql<{ seq: number }>`SELECT seq FROM audit_log ORDER BY seq`.execute(second.db);
    expect(seqs.rows.map((row) => Number(row.seq))).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  });
});
