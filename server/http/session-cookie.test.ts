import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STRICT_CONTENT_SECURITY_POLICY } from '../routes/console';
import { SESSION_COOKIE_MAX_AGE_S, signingKey } from '../services/sessions/browser-sessions';
import { cookieValue } from './session-cookie';
import { MetaStore } from '../store/meta-store';
import { startTestApp, TEST_SESSION_KEY, type TestApp } from '../testing/test-app';

/*
 * The session cookie: how a browser page that never sends X-Session-API-Key (OpenHands' own web
 * client) gets in. Requests here carry no key header unless they say so.
 */

const HOST = 'localhost:3000';
const OWN_ORIGIN = `http://${HOST}`;
/** Same site (same host name), other origin: SameSite=Strict does not stop it, the Origin check must. */
const OTHER_ORIGIN = 'http://localhost:5173';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => {
  await t.close();
});

const send = (options: InjectOptions, app = t) => app.app.inject({ ...options, headers: { host: HOST, ...options.headers } });

const signIn = (key: string, origin = OWN_ORIGIN, app = t) =>
  send({ method: 'POST', url: '/sign-in', payload: JSON.stringify({ key }), headers: { 'content-type': 'application/json', origin } }, app);

/** The `name=value` part of the Set-Cookie header, to send back as a browser would. */
async function signedInCookie(app = t): Promise<string> {
  const response = await signIn(TEST_SESSION_KEY, OWN_ORIGIN, app);
  expect(response.statusCode, response.body).toBe(200);
  return String(response.headers['set-cookie']).split(';')[0]!;
}

/** The status of an /api read with `cookie` (200 once it gets in). */
const readStatus = (cookie: string, app = t) =>
  send({ method: 'GET', url: '/api/options/config', headers: { cookie } }, app).then((r) => r.statusCode);

const signInForm = (key: string, headers: Record<string, string> = { origin: OWN_ORIGIN }) =>
  send({
    method: 'POST',
    url: '/sign-in',
    payload: new URLSearchParams({ key }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });

/** The secret the server signs cookies with, as stored. */
const storedSecret = async () => (await new MetaStore(t.db).get('session_cookie_secret'))!;
const nowSeconds = () => Math.floor(Date.now() / 1000);
/** A cookie as the server would sign it with `secret` for `sessionKey`, issued `age` seconds ago. */
const madeCookie = (secret: string, sessionKey: string, age = 0) =>
  `agent_console_session=${encodeURIComponent(cookieValue(signingKey(secret, sessionKey), { userId: 'default' }, (nowSeconds() - age) * 1000))}`;

/** The attributes of a Set-Cookie header, in any order. */
const attributesOf = (header: unknown) => String(header).split('; ').slice(1).sort();

describe('signing in with the session key', () => {
  it('sets an HttpOnly, SameSite=Strict session cookie that is not the key itself', async () => {
    const response = await signIn(TEST_SESSION_KEY);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    const cookie = String(response.headers['set-cookie']);
    // When it was issued, and a signature.
    expect(decodeURIComponent(cookie.split(';')[0]!)).toMatch(/^agent_console_session=default:\d+\.[\w+/]{43}$/);
    expect(attributesOf(cookie)).toEqual(['HttpOnly', 'Max-Age=43200', 'Path=/', 'SameSite=Strict']);
    expect(cookie).not.toContain(TEST_SESSION_KEY);
  });

  it('sets nothing for a wrong key, nor for the right key sent from another origin', async () => {
    const wrong = await signIn('not-the-key');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const foreign = await signIn(TEST_SESSION_KEY, OTHER_ORIGIN);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.headers['set-cookie']).toBeUndefined();
  });

  it('serves its own sign-in page (a form, no script) under the strict policy, and signs in from it', async () => {
    const page = await send({ method: 'GET', url: '/sign-in' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toBe(STRICT_CONTENT_SECURITY_POLICY);
    expect(page.body).toContain('<form method="post" action="/sign-in">');
    expect(page.body).not.toContain('<script');

    const refused = await signInForm('guess');
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toContain('That key was not accepted');
    expect(refused.headers['set-cookie']).toBeUndefined();

    const accepted = await signInForm(TEST_SESSION_KEY);
    expect(accepted.statusCode).toBe(303);
    expect(accepted.headers.location).toBe('/');
    expect(String(accepted.headers['set-cookie'])).toMatch(/^agent_console_session=/);
  });
});

describe('the API with the session cookie', () => {
  it('serves /api/settings without the header, reads and writes, from a page of this server', async () => {
    const cookie = await signedInCookie();
    const saved = await send({
      method: 'POST',
      url: '/api/settings',
      payload: JSON.stringify({ language: 'de' }),
      headers: { cookie, origin: OWN_ORIGIN, 'content-type': 'application/json' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // A same-origin GET: browsers send no Origin, but say where it comes from (or nothing, outside a browser).
    // A form of a page served with Referrer-Policy: no-referrer sends `Origin: null`.
    for (const headers of [
      { cookie, 'sec-fetch-site': 'same-origin' },
      { cookie },
      { cookie, origin: 'null', 'sec-fetch-site': 'same-origin' },
    ]) {
      const read = await send({ method: 'GET', url: '/api/settings', headers });
      expect(read.statusCode).toBe(200);
      expect(read.json().language).toBe('de');
    }
  });

  it('refuses it from another origin, also a same-site one, also without an Origin header', async () => {
    const cookie = await signedInCookie();
    for (const headers of [
      { cookie, origin: OTHER_ORIGIN },
      { cookie, origin: 'null' },
      { cookie, origin: 'null', 'sec-fetch-site': 'cross-site' },
      { cookie, 'sec-fetch-site': 'same-site' },
      { cookie, 'sec-fetch-site': 'cross-site' },
    ]) {
      const response = await send({ method: 'GET', url: '/api/settings', headers });
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      expect(response.json().detail).toMatch(/^Cross-origin request refused/);
    }
  });

  it('is no key: neither its value as the header, nor a cookie made with another key', async () => {
    const cookie = await signedInCookie();
    const value = cookie.split('=')[1]!;
    expect((await send({ method: 'GET', url: '/api/settings', headers: { 'x-session-api-key': value } })).statusCode).toBe(401);
    // A wrong key header is refused even beside a good cookie.
    expect((await send({ method: 'GET', url: '/api/settings', headers: { cookie, 'x-session-api-key': 'stale' } })).statusCode).toBe(401);
    // The stored secret with another session key: what a cookie from before a key change is.
    expect(await readStatus(madeCookie(await storedSecret(), 'another-session-key'))).toBe(401);
    expect((await send({ method: 'GET', url: '/api/settings' })).statusCode).toBe(401);
  });

  it('signing out clears the cookie and ends every cookie session; a form gets a redirect to the sign-in page', async () => {
    const cookie = await signedInCookie();
    const other = await signedInCookie();
    expect((await send({ method: 'POST', url: '/sign-out', headers: { origin: OTHER_ORIGIN } })).statusCode).toBe(403);
    expect(await readStatus(other)).toBe(200);

    const response = await send({ method: 'POST', url: '/sign-out', headers: { origin: OWN_ORIGIN, cookie } });
    expect(response.statusCode).toBe(200);
    expect(String(response.headers['set-cookie'])).toMatch(/^agent_console_session=;/);
    expect(attributesOf(response.headers['set-cookie'])).toEqual([
      'Expires=Thu, 01 Jan 1970 00:00:00 GMT',
      'HttpOnly',
      'Max-Age=0',
      'Path=/',
      'SameSite=Strict',
    ]);
    // A saved copy (another browser, or a replay) is no longer accepted.
    expect(await readStatus(cookie)).toBe(401);
    expect(await readStatus(other)).toBe(401);

    const form = await send({
      method: 'POST',
      url: '/sign-out',
      payload: '',
      headers: { origin: 'null', 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(303);
    expect(form.headers.location).toBe('/sign-in');
    expect(form.headers['set-cookie']).toContain('; Max-Age=0;');
  });

  it('ends sessions only for a request that is signed in (a cookie of ours or the key): anyone else only loses their own cookie', async () => {
    const cookie = await signedInCookie();
    // A wrong key is not rescued by a good cookie, as on every other route.
    for (const headers of [
      {},
      { cookie: madeCookie('another-secret', TEST_SESSION_KEY) },
      { 'x-session-api-key': 'wrong' },
      { 'x-session-api-key': 'wrong', cookie },
    ]) {
      const response = await send({ method: 'POST', url: '/sign-out', headers: { origin: OWN_ORIGIN, ...headers } });
      expect(response.statusCode, JSON.stringify(headers)).toBe(401);
      expect(response.headers['set-cookie']).toContain('; Max-Age=0;');
    }
    expect(await readStatus(cookie)).toBe(200);
    expect(
      (await send({ method: 'POST', url: '/sign-out', headers: { origin: OWN_ORIGIN, 'x-session-api-key': ` ${TEST_SESSION_KEY} ` } }))
        .statusCode,
    ).toBe(200);
    expect(await readStatus(cookie)).toBe(401);
  });

  it('ends a cookie after its max age, which the cookie carries too', async () => {
    await signedInCookie();
    const secret = await storedSecret();
    expect(await readStatus(madeCookie(secret, TEST_SESSION_KEY, 60))).toBe(200);
    expect(await readStatus(madeCookie(secret, TEST_SESSION_KEY, SESSION_COOKIE_MAX_AGE_S + 1))).toBe(401);
    // One made with another secret (a guess, or one from before a sign-out) is no cookie of ours.
    expect(await readStatus(madeCookie('another-secret', TEST_SESSION_KEY))).toBe(401);
  });

  it('is accepted when any of several cookies of its name is good (another page may plant one to lock the user out)', async () => {
    const cookie = await signedInCookie();
    expect(await readStatus(`agent_console_session=junk; ${cookie}`)).toBe(200);
    expect(await readStatus(`${cookie}; agent_console_session=junk`)).toBe(200);
    expect(await readStatus('agent_console_session=junk; agent_console_session=')).toBe(401);
  });

  it('refuses writes that say neither Origin nor Sec-Fetch-Site, and cross-origin forms, saving nothing', async () => {
    const cookie = await signedInCookie();
    const refused: InjectOptions[] = [
      { payload: JSON.stringify({ language: 'de' }), headers: { cookie, 'content-type': 'application/json' } },
      { payload: 'language=de', headers: { cookie, origin: OTHER_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' } },
      { payload: '{"language":"de"}', headers: { cookie, origin: OTHER_ORIGIN, 'content-type': 'text/plain' } },
      { payload: '{"language":"de"}', headers: { cookie, origin: 'null', 'sec-fetch-site': 'same-site', 'content-type': 'text/plain' } },
    ];
    for (const options of refused) {
      const response = await send({ method: 'POST', url: '/api/settings', ...options });
      expect(response.statusCode, JSON.stringify(options.headers)).toBe(403);
    }
    // First run: nothing was saved, so there are no settings yet.
    expect((await t.getSettings()).statusCode).toBe(404);
  });

  it('is shared by instances on one database, and a sign-out on one ends it on all', async () => {
    const second = await startTestApp({ dataDir: t.dataDir });
    try {
      const cookie = await signedInCookie();
      expect(await readStatus(cookie, second)).toBe(200);
      expect((await send({ method: 'POST', url: '/sign-out', headers: { origin: OWN_ORIGIN, cookie } }, second)).statusCode).toBe(200);
      expect(await readStatus(cookie)).toBe(401);
    } finally {
      await second.close({ keepData: true });
    }
  });
});

describe('the cookie on 127.0.0.1, where sandboxes are published', () => {
  const onLoopbackAddress = (options: InjectOptions) => send({ ...options, headers: { host: '127.0.0.1:3000', ...options.headers } });

  it('is never set: the sign-in page sends the user to the same port on localhost', async () => {
    const page = await onLoopbackAddress({ method: 'GET', url: '/sign-in' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(
      'Open <a href="http://localhost:3000/sign-in">http://localhost:3000/sign-in</a>: on 127.0.0.1 the cookie would also reach the sandboxes',
    );
    expect(page.body).not.toContain('<form');

    const form = await onLoopbackAddress({
      method: 'POST',
      url: '/sign-in',
      payload: new URLSearchParams({ key: TEST_SESSION_KEY }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://127.0.0.1:3000' },
    });
    expect(form.statusCode).toBe(409);
    expect(form.body).toContain('http://localhost:3000/sign-in');
    expect(form.headers['set-cookie']).toBeUndefined();

    // Our console's sign-in asks too, and goes on with the header.
    const json = await onLoopbackAddress({
      method: 'POST',
      url: '/sign-in',
      payload: JSON.stringify({ key: TEST_SESSION_KEY }),
      headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000' },
    });
    expect(json.statusCode).toBe(409);
    expect(json.json().detail).toMatch(/^Open http:\/\/localhost:3000\/sign-in to get the session cookie/);
    expect(json.headers['set-cookie']).toBeUndefined();
  });
});

describe('the cookie attributes and the key', () => {
  it('is Secure when the page is served over https, or always with COOKIE_SECURE', async () => {
    const overHttps = await signIn(TEST_SESSION_KEY, `https://${HOST}`);
    expect(overHttps.statusCode).toBe(200);
    expect(attributesOf(overHttps.headers['set-cookie'])).toEqual(['HttpOnly', 'Max-Age=43200', 'Path=/', 'SameSite=Strict', 'Secure']);

    const secure = await startTestApp({ cookieSecure: true });
    try {
      const response = await signIn(TEST_SESSION_KEY, OWN_ORIGIN, secure);
      expect(attributesOf(response.headers['set-cookie'])).toEqual(['HttpOnly', 'Max-Age=43200', 'Path=/', 'SameSite=Strict', 'Secure']);
      const signOut = await send({ method: 'POST', url: '/sign-out', headers: { origin: OWN_ORIGIN } }, secure);
      expect(attributesOf(signOut.headers['set-cookie'])).toContain('Secure');
      expect(attributesOf(signOut.headers['set-cookie'])).toContain('Max-Age=0');
    } finally {
      await secure.close();
    }
  });

  it('never echoes the key in a 422, whatever the body is', async () => {
    for (const payload of [JSON.stringify(TEST_SESSION_KEY), JSON.stringify({ key: [TEST_SESSION_KEY] })]) {
      const response = await send({
        method: 'POST',
        url: '/sign-in',
        payload,
        headers: { 'content-type': 'application/json', origin: OWN_ORIGIN },
      });
      expect(response.statusCode, payload).toBe(422);
      expect(response.body, payload).not.toContain(TEST_SESSION_KEY);
    }
  });

  it('takes the key with surrounding blanks at sign-in and in the header alike', async () => {
    expect((await signIn(` ${TEST_SESSION_KEY} `)).statusCode).toBe(200);
    const header = await send({ method: 'GET', url: '/api/settings', headers: { 'x-session-api-key': ` ${TEST_SESSION_KEY} ` } });
    expect(header.statusCode).toBe(404);
  });
});

describe('CONSOLE_CSP', () => {
  it("replaces the console pages' policy, and only theirs", async () => {
    const consoleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'foreign-console-'));
    fs.writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><script>boot()</script>');
    const policy = "default-src 'self'; script-src 'self' 'unsafe-inline'";
    const foreign = await startTestApp({ consoleDir, consoleContentSecurityPolicy: policy });
    try {
      const page = await foreign.app.inject({ method: 'GET', url: '/settings' });
      expect(page.headers['content-security-policy']).toBe(policy);
      const signInPage = await foreign.app.inject({ method: 'GET', url: '/sign-in' });
      expect(signInPage.headers['content-security-policy']).toBe(STRICT_CONTENT_SECURITY_POLICY);
    } finally {
      await foreign.close();
      fs.rmSync(consoleDir, { recursive: true, force: true });
    }
  });
});
