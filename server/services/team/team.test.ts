import argon2 from 'argon2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEST_SESSION_KEY, startTestApp, type TestApp } from '../../testing/test-app';
import { addMember } from '../../testing/team-members';
import { OWNER_ID } from '../../authz/caller';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
});

async function app(options: Parameters<typeof startTestApp>[0] = {}) {
  const t = await startTestApp(options);
  apps.push(t);
  return t;
}

const ORIGIN = 'http://localhost';
const call = (t: TestApp, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, key: string, body?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { 'x-session-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
const members = '/api/organizations/default/members';

/** Signs in with an email and password as a page of the server would; the cookie, or the refusal. */
const signIn = (t: TestApp, email: string, password: string, address = '10.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/sign-in',
    remoteAddress: address,
    headers: { origin: ORIGIN, host: 'localhost', 'content-type': 'application/json' },
    payload: JSON.stringify({ email, password }),
  });
const cookieOf = (response: { headers: Record<string, unknown> }) => String(response.headers['set-cookie']).split(';')[0]!;
const withCookie = (t: TestApp, cookie: string, url = '/api/settings?absent=null') =>
  t.app.inject({ method: 'GET', url, headers: { cookie, host: 'localhost' } });

/** Signs a browser in with `key`, as the console's sign-in page does; its cookie. */
const signInWithKey = async (t: TestApp, key: string) =>
  cookieOf(
    await t.app.inject({
      method: 'POST',
      url: '/sign-in',
      headers: { origin: ORIGIN, host: 'localhost', 'content-type': 'application/json' },
      payload: JSON.stringify({ key }),
    }),
  );

describe('roles', () => {
  it('keeps admins off owners, everyone off themselves, one active owner always, and the session key’s owner an owner', async () => {
    const t = await app();
    const owner2 = await addMember(t, 'o2@example.com', 'owner');
    const admin = await addMember(t, 'admin@example.com', 'admin');
    const member = await addMember(t, 'm@example.com', 'member');

    expect((await call(t, 'PATCH', `${members}/${owner2.userId}`, admin.key, { role: 'member' })).statusCode).toBe(403);
    expect((await call(t, 'PATCH', `${members}/${member.userId}`, admin.key, { role: 'owner' })).statusCode).toBe(403);
    expect((await call(t, 'PATCH', `${members}/${admin.userId}`, admin.key, { role: 'member' })).statusCode).toBe(403);
    expect((await call(t, 'POST', `${members}/invite`, admin.key, { emails: ['x@example.com'], role: 'owner' })).statusCode).toBe(403);
    expect((await call(t, 'PATCH', `${members}/${member.userId}`, admin.key, { role: 'admin' })).json()).toMatchObject({ role: 'admin' });
    expect((await call(t, 'PATCH', `${members}/${OWNER_ID}`, owner2.key, { role: 'member' })).statusCode).toBe(403);
    expect((await call(t, 'DELETE', `${members}/${OWNER_ID}`, owner2.key)).statusCode).toBe(403);
    // A member is no admin: the whole team is out of their reach.
    const other = await addMember(t, 'm2@example.com', 'member');
    expect((await call(t, 'GET', members, other.key)).statusCode).toBe(403);
    // Another owner may be changed by an owner.
    expect((await call(t, 'PATCH', `${members}/${owner2.userId}`, TEST_SESSION_KEY, { role: 'admin' })).statusCode).toBe(200);
  });

  it('never lets the session key’s owner stop being one, so an owner always remains', async () => {
    const t = await app();
    const owner = await addMember(t, 'o@example.com', 'owner');
    for (const patch of [{ role: 'member' as const }, { status: 'disabled' as const }]) {
      expect(await t.services.team.patchMember(owner.caller, OWNER_ID, patch).catch((e: Error) => e.message)).toMatch(/session key/);
    }
    expect(await t.services.team.deleteMember(owner.caller, OWNER_ID).catch((e: Error) => e.message)).toMatch(/session key/);
  });
});

describe('invitations', () => {
  it('work once, for 7 days; the email signs in with the password set', async () => {
    let now = new Date('2026-11-01T00:00:00Z');
    const t = await app({ clock: () => now });
    const invited = await call(t, 'POST', `${members}/invite`, TEST_SESSION_KEY, { emails: [' Late@Example.com ', 'x@example.com'] });
    expect(invited.statusCode).toBe(201);
    const [late, soon] = invited.json().successful as { id: string; email: string; link: string; expires_at: string }[];
    expect(late).toMatchObject({ email: 'late@example.com', expires_at: '2026-11-08T00:00:00.000Z' });
    const token = (link: string) => new URL(link).hash.slice('#token='.length);
    const accept = (link: string) =>
      t.app.inject({
        method: 'POST',
        url: '/accept-invitation',
        headers: { origin: ORIGIN, host: 'localhost', 'content-type': 'application/json' },
        payload: JSON.stringify({ token: token(link), password: 'a long enough password' }),
      });
    // Inviting the same address again fails for that address only.
    const again = await call(t, 'POST', `${members}/invite`, TEST_SESSION_KEY, { emails: ['late@example.com', 'y@example.com'] });
    expect(again.json()).toMatchObject({ failed: [{ email: 'late@example.com' }], successful: [{ email: 'y@example.com' }] });

    // Before it is accepted, the link says whom it invites (a POST: the token stays out of URLs).
    const lookUp = (link: string) =>
      t.app.inject({
        method: 'POST',
        url: '/invitation',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ token: token(link) }),
      });
    expect((await lookUp(soon!.link)).json()).toEqual({ email: 'x@example.com', expires_at: '2026-11-08T00:00:00.000Z' });
    expect((await lookUp('http://x/join#token=not-a-token')).statusCode).toBe(404);

    const accepted = await accept(soon!.link);
    expect(accepted.statusCode).toBe(200);
    expect((await lookUp(soon!.link)).statusCode).toBe(404); // used
    expect((await withCookie(t, cookieOf(accepted))).statusCode).toBe(200);
    expect((await accept(soon!.link)).statusCode).toBe(404); // used
    now = new Date('2026-11-08T00:00:01Z');
    expect((await accept(late!.link)).statusCode).toBe(404); // expired
    expect((await signIn(t, 'x@example.com', 'a long enough password')).statusCode).toBe(200);
  });
});

describe('renewing an invitation', () => {
  it('is allowed as inviting with its role is: an admin cannot renew an owner’s invitation and become an owner', async () => {
    const t = await app();
    const admin = await addMember(t, 'admin@example.com', 'admin');
    const invited = await call(t, 'POST', `${members}/invite`, TEST_SESSION_KEY, { emails: ['boss@example.com'], role: 'owner' });
    const ownerInvite = (invited.json().successful as { id: string }[])[0]!.id;
    const renewed = await call(t, 'POST', `${members}/${ownerInvite}/invitation`, admin.key);
    expect(renewed.statusCode).toBe(403);
    expect(renewed.json().detail).toMatch(/Only an owner can invite an owner/);
    expect(renewed.body).not.toMatch(/token=/);
    // A member's invitation is an admin's to renew; an owner renews an owner's.
    const member = await call(t, 'POST', `${members}/invite`, admin.key, { emails: ['m@example.com'], role: 'member' });
    const memberInvite = (member.json().successful as { id: string }[])[0]!.id;
    expect((await call(t, 'POST', `${members}/${memberInvite}/invitation`, admin.key)).statusCode).toBe(200);
    expect((await call(t, 'POST', `${members}/${ownerInvite}/invitation`, TEST_SESSION_KEY)).statusCode).toBe(200);
  });
});

describe('password sign-in', () => {
  it('answers an unknown email as a wrong password', async () => {
    const t = await app();
    const member = await addMember(t, 'm@example.com', 'member', 'the right password');
    const unknown = await signIn(t, 'nobody@example.com', 'whatever');
    const wrong = await signIn(t, member.email, 'the wrong password');
    expect([unknown.statusCode, wrong.statusCode]).toEqual([401, 401]);
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('limits failures of an account from an address and of an account from anywhere, never of an address', async () => {
    const t = await app();
    const member = await addMember(t, 'm@example.com', 'member', 'the right password');
    const other = await addMember(t, 'o@example.com', 'member', 'the other password');
    // Ten failures from one address (a reverse proxy all users come through, say): that account from there is refused…
    for (let i = 0; i < 10; i++) expect((await signIn(t, member.email, 'the wrong password', '10.0.0.1')).statusCode).toBe(401);
    const refused = await signIn(t, member.email, 'the right password', '10.0.0.1');
    expect(refused.json().detail).toMatch(/Too many failed sign-ins/);
    // …and nobody else: another account from the same address, the same account from another.
    expect((await signIn(t, other.email, 'the other password', '10.0.0.1')).statusCode).toBe(200);
    expect((await signIn(t, member.email, 'the right password', '10.0.0.2')).statusCode).toBe(200);
    // A guess spread over many addresses meets the account's own limit (a hundred in the window).
    for (let i = 0; i < 90; i++) await signIn(t, member.email, 'the wrong password', `10.0.1.${i}`);
    expect((await signIn(t, member.email, 'the right password', '10.0.2.1')).json().detail).toMatch(/Too many failed sign-ins/);
    expect((await signIn(t, other.email, 'the other password', '10.0.2.1')).statusCode).toBe(200);
  });

  it('counts each attempt before its hash: of forty at once, ten are hashed and the rest refused at once', async () => {
    const hashed = vi.spyOn(argon2, 'verify');
    const t = await app();
    const member = await addMember(t, 'm@example.com', 'member', 'the right password');
    hashed.mockClear();
    const answers = await Promise.all(Array.from({ length: 40 }, () => signIn(t, member.email, 'the wrong password')));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array.from({ length: 40 }, () => 401));
    expect(answers.filter((answer) => /Too many failed sign-ins/.test(answer.json().detail as string))).toHaveLength(30);
    expect(hashed).toHaveBeenCalledTimes(10);
    hashed.mockRestore();
  });

  it('ends the sessions of a user who is disabled, whose role changes, or who signs out', async () => {
    const t = await app();
    const member = await addMember(t, 'm@example.com', 'member', 'the right password');
    const session = cookieOf(await signIn(t, member.email, 'the right password'));
    expect((await withCookie(t, session)).statusCode).toBe(200);
    await call(t, 'PATCH', `${members}/${member.userId}`, TEST_SESSION_KEY, { role: 'admin' });
    expect((await withCookie(t, session)).statusCode).toBe(401);

    const next = cookieOf(await signIn(t, member.email, 'the right password'));
    expect((await withCookie(t, next)).statusCode).toBe(200);
    const { id } = (await call(t, 'POST', '/api/v1/sandboxes', member.key)).json() as { id: string };
    await call(t, 'PATCH', `${members}/${member.userId}`, TEST_SESSION_KEY, { status: 'disabled' });
    const [sandbox] = (await call(t, 'GET', `/api/v1/sandboxes?id=${id}`, TEST_SESSION_KEY)).json() as { status: string }[];
    expect(sandbox?.status).toBe('PAUSED');
    expect((await withCookie(t, next)).statusCode).toBe(401);
    expect((await call(t, 'GET', '/api/keys', member.key)).statusCode).toBe(401);
    expect((await signIn(t, member.email, 'the right password')).statusCode).toBe(401);

    await call(t, 'PATCH', `${members}/${member.userId}`, TEST_SESSION_KEY, { status: 'active' });
    const third = cookieOf(await signIn(t, member.email, 'the right password'));
    // Disabling deleted the keys: enabling brings none back.
    expect((await call(t, 'GET', '/api/keys', member.key)).statusCode).toBe(401);
    await t.app.inject({ method: 'POST', url: '/sign-out', headers: { cookie: third, origin: ORIGIN, host: 'localhost' } });
    expect((await withCookie(t, third)).statusCode).toBe(401);
  });
});

describe('changing a password', () => {
  it('needs the current one, ends every other session, and keeps this browser signed in', async () => {
    const t = await app();
    const member = await addMember(t, 'm@example.com', 'member', 'the old password');
    const here = cookieOf(await signIn(t, member.email, 'the old password'));
    const elsewhere = cookieOf(await signIn(t, member.email, 'the old password', '10.0.0.2'));
    const change = (cookie: string, body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/change-password',
        headers: { cookie, origin: ORIGIN, host: 'localhost', 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    const wrong = await change(here, { current_password: 'not it', new_password: 'a brand new password' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().detail[0].loc).toEqual(['body', 'current_password']);
    expect((await change(here, { current_password: 'the old password', new_password: 'short' })).statusCode).toBe(422);
    const changed = await change(here, { current_password: 'the old password', new_password: 'a brand new password' });
    expect(changed.statusCode).toBe(200);
    expect((await withCookie(t, cookieOf(changed))).statusCode).toBe(200);
    expect((await withCookie(t, elsewhere)).statusCode).toBe(401);
    expect((await signIn(t, member.email, 'the old password')).statusCode).toBe(401);
    expect((await signIn(t, member.email, 'a brand new password')).statusCode).toBe(200);
    // The owner signs in with the key: there is no password to change.
    const owners = await t.app.inject({
      method: 'POST',
      url: '/change-password',
      headers: { 'x-session-api-key': TEST_SESSION_KEY, origin: ORIGIN, host: 'localhost', 'content-type': 'application/json' },
      payload: JSON.stringify({ current_password: 'x', new_password: 'a brand new password' }),
    });
    expect(owners.statusCode).toBe(409);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/organizations/default/me',
      headers: { cookie: cookieOf(changed), host: 'localhost' },
    });
    expect(me.json()).toMatchObject({ has_password: true });
  });
});

describe('API keys', () => {
  it('are shown once, stored as a hash, refused after they expire or are deleted', async () => {
    let now = new Date('2026-11-01T00:00:00Z');
    const t = await app({ clock: () => now });
    const made = await call(t, 'POST', '/api/keys', TEST_SESSION_KEY, { name: 'ci', expires_at: '2026-11-02T00:00:00Z' });
    const { key, id } = made.json() as { key: string; id: number };
    expect(key).toMatch(/^sk-oh-[A-Za-z0-9]{32}$/);
    expect(await t.databaseText()).not.toContain(key);
    const listed = await call(t, 'GET', '/api/keys', key);
    expect(listed.json()).toEqual([expect.objectContaining({ id, name: 'ci', prefix: key.slice(0, 10), last_used_at: now.toISOString() })]);
    expect(JSON.stringify(listed.json())).not.toContain(key);
    expect((await call(t, 'GET', '/api/keys/current', key)).json()).toMatchObject({ id, user_id: OWNER_ID });
    expect((await call(t, 'POST', '/api/keys', TEST_SESSION_KEY, { expires_at: '2026-10-01T00:00:00Z' })).statusCode).toBe(422);
    now = new Date('2026-11-02T00:00:00Z');
    expect((await call(t, 'GET', '/api/keys', key)).statusCode).toBe(401);
    expect((await call(t, 'DELETE', `/api/keys/${id}`, TEST_SESSION_KEY)).statusCode).toBe(200);
    expect((await call(t, 'DELETE', `/api/keys/${id}`, TEST_SESSION_KEY)).statusCode).toBe(404);
  });
});

describe('what an API key signed in', () => {
  it('ends with the key: deleted, or expired; a password changed in it does not free it', async () => {
    let now = new Date('2026-11-01T00:00:00Z');
    const t = await app({ clock: () => now });
    const member = await addMember(t, 'm@example.com', 'member', 'the old password');
    const browser = await signInWithKey(t, member.key);
    expect((await withCookie(t, browser)).statusCode).toBe(200);
    const changed = await t.app.inject({
      method: 'POST',
      url: '/change-password',
      headers: { cookie: browser, origin: ORIGIN, host: 'localhost', 'content-type': 'application/json' },
      payload: JSON.stringify({ current_password: 'the old password', new_password: 'a brand new password' }),
    });
    const renewed = cookieOf(changed);
    expect((await withCookie(t, renewed)).statusCode).toBe(200);
    const keys = (await call(t, 'GET', '/api/keys', member.key)).json() as { id: number }[];
    expect((await call(t, 'DELETE', `/api/keys/${keys[0]!.id}`, member.key)).statusCode).toBe(200);
    expect((await withCookie(t, browser)).statusCode).toBe(401);
    expect((await withCookie(t, renewed)).statusCode).toBe(401);

    const expiring = (await call(t, 'POST', '/api/keys', TEST_SESSION_KEY, { name: 'a day', expires_at: '2026-11-02T00:00:00Z' })).json();
    const owners = await signInWithKey(t, expiring.key as string);
    expect((await withCookie(t, owners)).statusCode).toBe(200);
    now = new Date('2026-11-02T00:00:01Z');
    expect((await withCookie(t, owners)).statusCode).toBe(401);
  });

  it('makes no key that outlives it, through the key or through the browser it signed in', async () => {
    const t = await app({ clock: () => new Date('2026-11-01T00:00:00Z') });
    const expiring = (await call(t, 'POST', '/api/keys', TEST_SESSION_KEY, { name: 'a day', expires_at: '2026-11-02T00:00:00Z' })).json();
    const key = expiring.key as string;
    const forever = await call(t, 'POST', '/api/keys', key, { name: 'forever' });
    expect(forever.statusCode).toBe(200);
    expect(forever.json().expires_at).toBe('2026-11-02T00:00:00.000Z');
    const later = await call(t, 'POST', '/api/keys', key, { name: 'later', expires_at: '2026-12-01T00:00:00Z' });
    expect(later.statusCode).toBe(422);
    expect(later.json().detail[0]).toMatchObject({ loc: ['body', 'expires_at'], msg: expect.stringMatching(/cannot outlive it/) });
    const browser = await signInWithKey(t, key);
    const fromBrowser = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: { cookie: browser, host: 'localhost', origin: ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'from the browser' }),
    });
    expect(fromBrowser.json().expires_at).toBe('2026-11-02T00:00:00.000Z');
  });
});

describe('last sign-in', () => {
  it('is also when a user signed a browser in with the session key or an API key; a key used in a header is no sign-in', async () => {
    let now = new Date('2026-11-01T00:00:00Z');
    const t = await app({ clock: () => now });
    const member = await addMember(t, 'm@example.com', 'member');
    const lastSignIn = async (userId: string) =>
      ((await call(t, 'GET', members, TEST_SESSION_KEY)).json().items as { user_id: string; last_sign_in_at: string | null }[]).find(
        (user) => user.user_id === userId,
      )?.last_sign_in_at;
    expect(await lastSignIn(OWNER_ID)).toBeNull();
    now = new Date('2026-11-02T00:00:00Z');
    await call(t, 'GET', '/api/settings', member.key);
    expect(await lastSignIn(member.userId)).not.toBe(now.toISOString());
    for (const [userId, key] of [
      [OWNER_ID, TEST_SESSION_KEY],
      [member.userId, member.key],
    ] as const) {
      expect(await signInWithKey(t, key)).toContain('=');
      expect(await lastSignIn(userId)).toBe(now.toISOString());
    }
  });
});

describe('sandbox limits', () => {
  it('refuse a start over a user’s own limits, naming them; other users’ sandboxes are never paused to make room', async () => {
    const t = await app({ sandboxLimits: { maxRunning: 2 } });
    const member = await addMember(t, 'm@example.com', 'member');
    const other = await addMember(t, 'o@example.com', 'member');
    await call(t, 'PATCH', `${members}/${member.userId}`, TEST_SESSION_KEY, { max_running_sandboxes: 1, max_sandboxes: 2 });
    const start = (key: string) => call(t, 'POST', '/api/v1/sandboxes', key);

    const first = (await start(member.key)).json() as { id: string };
    // Its agent server knows whose it is (asked once it runs: a start may answer while it is STARTING).
    type Running = { status: string; exposed_urls: { url: string }[]; session_api_key: string };
    const running = async () => ((await call(t, 'GET', `/api/v1/sandboxes?id=${first.id}`, member.key)).json() as Running[])[0]!;
    await expect.poll(async () => (await running()).status, { timeout: 20_000 }).toBe('RUNNING');
    const { exposed_urls, session_api_key } = await running();
    const info = await fetch(`${exposed_urls[0]!.url}/server_info`, { headers: { 'x-session-api-key': session_api_key } });
    expect(await info.json()).toMatchObject({ owner: member.userId });
    // The member's capacity is their own, against their limits; the owner's is the server's.
    expect((await call(t, 'GET', '/api/v1/sandboxes/capacity', member.key)).json()).toMatchObject({
      running: 1,
      max_running: 1,
      sandboxes: 1,
      max_sandboxes: 2,
      scope: 'user',
    });
    expect((await call(t, 'GET', '/api/v1/sandboxes/capacity', other.key)).json()).toMatchObject({
      running: 0,
      sandboxes: 0,
      max_running: 2,
    });
    expect((await call(t, 'GET', '/api/v1/sandboxes/capacity', TEST_SESSION_KEY)).json()).toMatchObject({
      running: 1,
      max_running: 2,
      scope: 'server',
    });
    const second = await start(member.key);
    expect(second.statusCode).toBe(409);
    expect(second.json().detail).toMatch(/You may run 1 sandbox at once/);
    await call(t, 'POST', `/api/v1/sandboxes/${first.id}/pause`, member.key);
    const again = (await start(member.key)).json() as { id: string };
    await call(t, 'POST', `/api/v1/sandboxes/${again.id}/pause`, member.key);
    const third = await start(member.key);
    expect(third.json().detail).toMatch(/You may have 2 sandboxes/);

    // The member's paused sandbox runs again; the other member's two starts fill the cap (2) with it, and a third pauses only their own.
    expect((await call(t, 'POST', `/api/v1/sandboxes/${first.id}/resume`, member.key)).statusCode).toBe(200);
    const full = await start(other.key);
    expect((full.json() as { paused_sandbox_ids: string[] }).paused_sandbox_ids).toEqual([]);
    const overCap = await start(other.key);
    expect(overCap.statusCode).toBe(200);
    expect(overCap.json().paused_sandbox_ids).toEqual([full.json().id]);
    await call(t, 'POST', `/api/v1/sandboxes/${first.id}/pause`, member.key);
    expect((await call(t, 'POST', `/api/v1/sandboxes/${full.json().id}/resume`, other.key)).statusCode).toBe(200);
    const resumed = await call(t, 'POST', `/api/v1/sandboxes/${first.id}/resume`, member.key);
    expect(resumed.statusCode).toBe(409);
    expect(resumed.json().detail).toMatch(/are other users'/);
  });
});

describe('an admin’s owner filter', () => {
  it('narrows sandboxes and conversations to one user; a member’s own scope stays theirs whatever they ask', async () => {
    const t = await app();
    const member = await addMember(t, 'm@example.com', 'member');
    const { id } = (await call(t, 'POST', '/api/v1/sandboxes', member.key)).json() as { id: string };
    const { id: ownersId } = (await call(t, 'POST', '/api/v1/sandboxes', TEST_SESSION_KEY)).json() as { id: string };
    const ids = async (key: string, owner: string) =>
      (
        (await call(t, 'GET', `/api/v1/sandboxes/search?created_by_user_id__eq=${owner}`, key)).json() as { items: { id: string }[] }
      ).items.map((item) => item.id);
    expect(await ids(TEST_SESSION_KEY, member.userId)).toEqual([id]);
    expect(await ids(TEST_SESSION_KEY, OWNER_ID)).toEqual([ownersId]);
    expect(await ids(member.key, OWNER_ID)).toEqual([]);
    const count = await call(t, 'GET', `/api/v1/app-conversations/count?created_by_user_id__eq=${member.userId}`, TEST_SESSION_KEY);
    expect(count.json()).toBe(0);
  });
});

describe('organisation defaults', () => {
  it('fill what a user has not set, the key only with the team’s LLM URL; MCP servers are shared; only admins see or change them', async () => {
    const t = await app();
    const member = await addMember(t, 'm@example.com', 'member');
    const admin = await addMember(t, 'a@example.com', 'admin');
    const defaults = {
      llm_model: 'openai/team-model',
      llm_base_url: 'http://llm.team.example',
      llm_api_key: 'team-secret-key',
      confirmation_mode: true,
      mcp_config: { sse_servers: [{ url: 'http://mcp.team.example/sse', api_key: 'team-mcp-key' }], stdio_servers: [], shttp_servers: [] },
    };
    const patched = await call(t, 'PATCH', '/api/organizations/default/settings', admin.key, defaults);
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ llm_model: 'openai/team-model', llm_api_key: null, llm_api_key_set: true });
    expect(patched.body).not.toContain('team-secret-key');
    expect(patched.body).not.toContain('team-mcp-key');
    expect((await call(t, 'GET', '/api/organizations/default/settings', member.key)).statusCode).toBe(403);
    expect((await call(t, 'PATCH', '/api/organizations/default/settings', admin.key, { email: 'x@example.com' })).statusCode).toBe(422);

    const read = async () => (await call(t, 'GET', '/api/settings', member.key)).json();
    expect(await read()).toMatchObject({
      llm_model: 'openai/team-model',
      confirmation_mode: true,
      llm_api_key_set: true,
      mcp_config: null,
    });
    expect((await read()).inherited).toEqual(expect.arrayContaining(['llm_model', 'llm_base_url', 'confirmation_mode', 'llm_api_key']));
    const agentGets = await t.services.settings.readWithSecrets(member.caller);
    expect(agentGets).toMatchObject({
      llm_api_key: 'team-secret-key',
      mcp_config: { sse_servers: [{ url: 'http://mcp.team.example/sse' }] },
    });

    // Their own model and turning confirmation off are theirs; their own LLM URL takes no team key.
    await call(t, 'POST', '/api/settings', member.key, {
      llm_model: 'openai/mine',
      confirmation_mode: false,
      llm_base_url: 'http://mine.example',
    });
    const own = await read();
    expect(own).toMatchObject({ llm_model: 'openai/mine', confirmation_mode: false, llm_api_key_set: false });
    expect(own.inherited).not.toContain('llm_model');
    expect((await t.services.settings.readWithSecrets(member.caller))?.llm_api_key).toBeNull();
  });
});

describe('the team’s MCP servers', () => {
  it('are in a member’s settings beside their own, without a secret, and not where a server of theirs stands for one', async () => {
    const t = await app();
    const member = await addMember(t, 'm@example.com', 'member');
    await call(t, 'PATCH', '/api/organizations/default/settings', TEST_SESSION_KEY, {
      mcp_config: {
        sse_servers: [{ url: 'http://mcp.team.example/sse', api_key: 'team-mcp-key' }],
        shttp_servers: [{ url: 'http://bot:team-url-password@search.team.example/mcp?token=team-url-token' }],
        stdio_servers: [{ name: 'tracker', command: 'npx', args: ['tracker-mcp'], env: { TRACKER_TOKEN: 'team-tracker-token' } }],
      },
    });
    const read = async () => call(t, 'GET', '/api/settings', member.key);
    const first = await read();
    expect(first.body).not.toContain('team-mcp-key');
    expect(first.body).not.toContain('team-tracker-token');
    expect(first.body).not.toContain('team-url-password');
    expect(first.body).not.toContain('team-url-token');
    expect(first.json()).toMatchObject({
      mcp_config: null,
      team_mcp_config: {
        sse_servers: [{ url: 'http://mcp.team.example/sse', api_key: null, api_key_set: true }],
        shttp_servers: [{ url: 'http://search.team.example/mcp', api_key_set: false }],
        stdio_servers: [{ name: 'tracker', command: 'npx', args: ['tracker-mcp'], env: { TRACKER_TOKEN: '' } }],
      },
    });

    // Their own server at the team's URL is the one the agent gets: the team's is not listed.
    await call(t, 'POST', '/api/settings', member.key, {
      mcp_config: { sse_servers: [{ url: 'http://mcp.team.example/sse', api_key: 'their-key' }], stdio_servers: [], shttp_servers: [] },
    });
    const team = (await read()).json().team_mcp_config;
    expect(team.sse_servers).toEqual([]);
    expect(team.stdio_servers.map((server: { name: string }) => server.name)).toEqual(['tracker']);
  });
});

describe('deleting a user', () => {
  it('removes their keys, settings and secrets; their sandboxes stay, paused, for admins', async () => {
    const t = await app();
    const member = await addMember(t, 'm@example.com', 'member');
    await call(t, 'POST', '/api/settings', member.key, { llm_model: 'openai/theirs' });
    await call(t, 'POST', '/api/secrets', member.key, { name: 'THEIRS', value: 'x' });
    const { id } = (await call(t, 'POST', '/api/v1/sandboxes', member.key)).json() as { id: string };
    expect((await call(t, 'DELETE', `${members}/${member.userId}`, TEST_SESSION_KEY)).statusCode).toBe(200);
    expect((await call(t, 'GET', '/api/settings', member.key)).statusCode).toBe(401);
    expect(await t.services.settings.readWithSecrets(member.caller)).toBeUndefined();
    expect(await t.services.secrets.readCustomSecrets(member.caller)).toEqual([]);
    const [sandbox] = (await call(t, 'GET', `/api/v1/sandboxes?id=${id}`, TEST_SESSION_KEY)).json() as { status: string }[];
    expect(sandbox?.status).toBe('PAUSED');
    expect((await call(t, 'GET', members, TEST_SESSION_KEY)).json().items.map((m: { email: string }) => m.email)).not.toContain(
      member.email,
    );
  });
});
