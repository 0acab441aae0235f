import { afterEach, describe, expect, it } from 'vitest';
import { inEnglish } from '../i18n/english';
import { SHARED_NETWORK_REFUSAL } from '../services/sessions/shared-network-refusal';
import { startTestApp, TEST_SESSION_KEY, type TestApp } from '../testing/test-app';

/** The refusal as a client without a language reads it. */
const REFUSAL = inEnglish(SHARED_NETWORK_REFUSAL);

/*
 * Process sandboxes without namespaces share the server's network: a page one serves on any of
 * this machine's names (`localhost:<its port>`) would be sent the browser's session cookie, which
 * cookies do not keep per port, and could replay it. Such a server gives no browser session, takes
 * none it gave before, and invites nobody; the session key and API keys (headers) still work.
 */

const HOST = 'localhost:3000';
const ORIGIN = `http://${HOST}`;
const apps: TestApp[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
});

const page = (t: TestApp, url: string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
const withCookie = (t: TestApp, cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/options/config', headers: { host: HOST, cookie } });

describe('a server whose sandboxes share its network', () => {
  it('sets no session cookie, takes none it set before, says why, and invites nobody; keys still work', async () => {
    const before = await startTestApp();
    const signedIn = await page(before, '/sign-in', { key: TEST_SESSION_KEY });
    expect(signedIn.statusCode).toBe(200);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
    expect((await withCookie(before, cookie)).statusCode).toBe(200);
    await before.close({ keepData: true });

    const t = await startTestApp({ dataDir: before.dataDir, sandboxesShareNetwork: true });
    apps.push(t);
    expect((await withCookie(t, cookie)).statusCode).toBe(401);
    for (const [url, body] of [
      ['/sign-in', { key: TEST_SESSION_KEY }],
      ['/sign-in', { email: 'someone@example.com', password: 'correct horse battery' }],
      ['/accept-invitation', { token: 'x'.repeat(32), password: 'correct horse battery' }],
    ] as const) {
      const refused = await page(t, url, body);
      expect(refused.statusCode, url).toBe(409);
      expect(refused.json(), url).toEqual({ detail: REFUSAL });
      expect(refused.headers['set-cookie'], url).toBeUndefined();
    }
    const form = await t.app.inject({
      method: 'POST',
      url: '/sign-in',
      headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ key: TEST_SESSION_KEY }).toString(),
    });
    expect(form.statusCode).toBe(409);
    expect(form.body).toContain('apt-get install bubblewrap slirp4netns');

    const invite = await t.request({
      method: 'POST',
      url: '/api/organizations/default/members/invite',
      payload: { emails: ['mia@example.com'], role: 'member' },
    });
    expect(invite.statusCode).toBe(409);
    expect(invite.json().detail).toBe(REFUSAL);
    const { items } = (await t.request({ method: 'GET', url: '/api/organizations/default/members' })).json() as {
      items: { email: string }[];
    };
    expect(items.length).toBeGreaterThan(0);
    expect(items.map((user) => user.email)).not.toContain('mia@example.com');
    expect((await t.request({ method: 'GET', url: '/api/options/config' })).statusCode).toBe(200);
  });
});
