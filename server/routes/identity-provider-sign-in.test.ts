import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityProvider, type TestIdentityProvider } from '../../test-support/oidc/identity-provider';
import { sessionKeyCaller } from '../authz/caller';
import { inEnglish } from '../i18n/english';
import { SHARED_NETWORK_REFUSAL } from '../services/sessions/shared-network-refusal';
import { startTestApp, TEST_SESSION_KEY, type TestApp } from '../testing/test-app';

/** The refusal as a client without a language reads it. */
const REFUSAL = inEnglish(SHARED_NETWORK_REFUSAL);

/*
 * Sign-in with an identity provider, against a real OpenID Connect provider on loopback: the
 * server's redirect there, its login form and consent, the code back, and the session cookie.
 */

const HOST = 'localhost:4000';
const REDIRECT_URI = `http://${HOST}/sign-in/oidc/callback`;

let provider: TestIdentityProvider;
beforeAll(async () => {
  provider = await startIdentityProvider(REDIRECT_URI, {
    mia: { email: 'Mia@Example.com', name: 'Mia' },
    newcomer: { email: 'new@example.com', name: 'Newcomer' },
    unverified: { email: 'unverified@example.com', verified: false },
    gone: { email: 'gone@example.com' },
  });
});
afterAll(() => provider.close());

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});
async function app(allowSignups = false, sandboxesShareNetwork = false) {
  const t = await startTestApp({
    oidc: { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret, allowSignups },
    sandboxesShareNetwork,
  });
  apps.push(t);
  return t;
}

const cookiesOf = (header: string | string[] | null | undefined) =>
  (Array.isArray(header) ? header : header ? [header] : []).map((cookie) => cookie.split(';')[0]!);

/** Goes through the provider's login form and consent as `login`, as a browser would; the server's response to the callback. */
async function signInAs(t: TestApp, login: string, tamper: (callback: URL) => URL = (url) => url) {
  const start = await t.app.inject({ method: 'GET', url: '/sign-in/oidc', headers: { host: HOST } });
  expect(start.statusCode).toBe(303);
  const pending = cookiesOf(start.headers['set-cookie']).join('; ');
  const jar = new Map<string, string>();
  const send = async (url: URL, body?: URLSearchParams) => {
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: [...jar.values()].join('; '), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body,
    });
    for (const cookie of response.headers.getSetCookie()) jar.set(cookie.split('=')[0]!, cookie.split(';')[0]!);
    return response;
  };
  let url = new URL(String(start.headers.location));
  for (let step = 0; step < 12 && !url.href.startsWith(REDIRECT_URI); step++) {
    let response = await send(url);
    if (response.status === 200) {
      const html = await response.text();
      const action = new URL(/action="([^"]+)"/.exec(html)![1]!, url);
      const form = html.includes('name="login"')
        ? new URLSearchParams({ prompt: 'login', login, password: 'any' })
        : new URLSearchParams({ prompt: 'consent' });
      response = await send(action, form);
    }
    url = new URL(response.headers.get('location')!, url);
  }
  const callback = tamper(url);
  return t.app.inject({ method: 'GET', url: `${callback.pathname}${callback.search}`, headers: { host: HOST, cookie: pending } });
}

const consoleHash = (response: { headers: Record<string, unknown> }) => decodeURIComponent(String(response.headers.location));

describe('sign-in with an identity provider', () => {
  it('is refused, saying why, by a server whose sandboxes share its network: no session, and no user made', async () => {
    const t = await app(true, true);
    for (const url of ['/sign-in/oidc', '/sign-in/oidc/callback?code=x&state=y']) {
      const refused = await t.app.inject({ method: 'GET', url, headers: { host: HOST } });
      expect(refused.statusCode, url).toBe(303);
      expect(consoleHash(refused), url).toBe(`/#sign-in-error=${REFUSAL}`);
      expect(
        cookiesOf(refused.headers['set-cookie']).filter((cookie) => cookie.startsWith('agent_console_session=')),
        url,
      ).toEqual([]);
    }
    const members = await t.request({ method: 'GET', url: '/api/organizations/default/members' });
    expect((members.json() as { items: unknown[] }).items).toHaveLength(1);
  });

  it('signs in the invited user its verified email names, who is active from then on', async () => {
    const t = await app();
    const { successful } = await t.services.team.invite(sessionKeyCaller, ['mia@example.com'], 'member');
    const signedIn = await signInAs(t, 'mia');
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/#session=cookie');
    const session = cookiesOf(signedIn.headers['set-cookie']).find((cookie) => cookie.startsWith('agent_console_session='))!;
    const me = await t.app.inject({ method: 'GET', url: '/api/organizations/default/me', headers: { host: HOST, cookie: session } });
    expect(me.json()).toMatchObject({ user_id: successful[0]!.id, email: 'mia@example.com', role: 'member', auth_type: 'cookie' });
    expect((await t.services.team.user({ userId: successful[0]!.id, role: 'member', authType: 'cookie' }))?.status).toBe('active');
    // Settings show the account's address as the provider verified it (its `email_verified` claim).
    const settings = await t.app.inject({ method: 'GET', url: '/api/settings', headers: { host: HOST, cookie: session } });
    expect(settings.json()).toMatchObject({ email: 'mia@example.com', email_verified: true });
  });

  it('refuses an email the team does not know, unless sign-ups are allowed: then it is a new member', async () => {
    const closed = await app(false);
    expect(consoleHash(await signInAs(closed, 'newcomer'))).toMatch(/#sign-in-error=new@example.com is not on this team/);
    const open = await app(true);
    const signedIn = await signInAs(open, 'newcomer');
    expect(signedIn.headers.location).toBe('/#session=cookie');
    const members = await open.request({ method: 'GET', url: '/api/organizations/default/members' });
    expect(members.json().items).toContainEqual(
      expect.objectContaining({ email: 'new@example.com', name: 'Newcomer', role: 'member', status: 'active' }),
    );
  });

  it('refuses an unverified email, a disabled user, and an answer whose state is not the one it sent', async () => {
    const t = await app(true);
    expect(consoleHash(await signInAs(t, 'unverified'))).toMatch(/has not verified this email/);
    const { successful } = await t.services.team.invite(sessionKeyCaller, ['gone@example.com'], 'member');
    await signInAs(t, 'gone');
    await t.request({
      method: 'PATCH',
      url: `/api/organizations/default/members/${successful[0]!.id}`,
      payload: { status: 'disabled' },
      headers: { 'x-session-api-key': TEST_SESSION_KEY },
    });
    expect(consoleHash(await signInAs(t, 'gone'))).toMatch(/disabled/);
    const forged = await signInAs(t, 'mia', (url) => {
      url.searchParams.set('state', 'forged');
      return url;
    });
    expect(consoleHash(forged)).toMatch(/did not sign you in/);
    expect(
      cookiesOf(forged.headers['set-cookie']).some((cookie) => cookie.startsWith('agent_console_session=') && cookie.length > 25),
    ).toBe(false);
  });

  it('needs the cookie it set when the sign-in started', async () => {
    const t = await app();
    const callback = await t.app.inject({ method: 'GET', url: '/sign-in/oidc/callback?code=x&state=y', headers: { host: HOST } });
    expect(consoleHash(callback)).toMatch(/took too long or was started elsewhere/);
  });
});
