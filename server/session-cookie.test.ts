import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STRICT_CONTENT_SECURITY_POLICY } from './routes/console';
import { cookieValueFor } from './session-cookie';
import { startTestApp, TEST_SESSION_KEY, type TestApp } from './testing/test-app';

/*
 * The session cookie: how a browser page that never sends X-Session-API-Key (OpenHands' own web
 * client) gets in. Requests here carry no key header unless they say so.
 */

const HOST = '127.0.0.1:3000';
const OWN_ORIGIN = `http://${HOST}`;
/** Same site (same host name), other origin: SameSite=Strict does not stop it, the Origin check must. */
const OTHER_ORIGIN = 'http://127.0.0.1:5173';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => {
  await t.close();
});

const send = (options: InjectOptions) => t.app.inject({ ...options, headers: { host: HOST, ...options.headers } });

const signIn = (key: string, origin = OWN_ORIGIN) =>
  send({ method: 'POST', url: '/sign-in', payload: JSON.stringify({ key }), headers: { 'content-type': 'application/json', origin } });

/** The `name=value` part of the Set-Cookie header, to send back as a browser would. */
async function signedInCookie(): Promise<string> {
  const response = await signIn(TEST_SESSION_KEY);
  expect(response.statusCode, response.body).toBe(200);
  return String(response.headers['set-cookie']).split(';')[0]!;
}

describe('signing in with the session key', () => {
  it('sets an HttpOnly, SameSite=Strict session cookie that is not the key itself', async () => {
    const response = await signIn(TEST_SESSION_KEY);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/^agent_console_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
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

    const form = (key: string) =>
      send({
        method: 'POST',
        url: '/sign-in',
        payload: new URLSearchParams({ key }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: OWN_ORIGIN },
      });
    const refused = await form('guess');
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toContain('That key was not accepted');
    expect(refused.headers['set-cookie']).toBeUndefined();

    const accepted = await form(TEST_SESSION_KEY);
    expect(accepted.statusCode).toBe(303);
    expect(accepted.headers.location).toBe('/');
    expect(String(accepted.headers['set-cookie'])).toMatch(/^agent_console_session=/);
  });
});

describe('the API with the session cookie', () => {
  it('answers /api/settings without the header, reads and writes, from a page of this server', async () => {
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
    const otherKeys = `agent_console_session=${cookieValueFor('another-session-key')}`;
    expect((await send({ method: 'GET', url: '/api/settings', headers: { cookie: otherKeys } })).statusCode).toBe(401);
    expect((await send({ method: 'GET', url: '/api/settings' })).statusCode).toBe(401);
  });

  it('signing out clears the cookie', async () => {
    const response = await send({ method: 'POST', url: '/sign-out', headers: { origin: OWN_ORIGIN } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['set-cookie']).toBe('agent_console_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
    expect((await send({ method: 'POST', url: '/sign-out', headers: { origin: OTHER_ORIGIN } })).statusCode).toBe(403);
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
