import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localeOf } from '../i18n/request-locale';
import { startTestApp, type TestApp } from '../testing/test-app';

/*
 * The server's own words (refusals, the contract's checks, the reasons Settings shows) in the
 * language a request asks for; English without one, as OpenHands' clients have always read them.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const GERMAN = { 'accept-language': 'de' };
const json = { 'content-type': 'application/json' };

/** A 409: the session key's owner has no password to change. */
const changePassword = (headers: Record<string, string> = {}) =>
  t.request({
    method: 'POST',
    url: '/change-password',
    headers: { origin: 'http://localhost', host: 'localhost', ...json, ...headers },
    payload: JSON.stringify({ current_password: 'x', new_password: 'a brand new password' }),
  });
/** A 404 in FastAPI's shape. */
const unknownConversation = (headers: Record<string, string> = {}) =>
  t.request({
    method: 'PATCH',
    url: '/api/v1/app-conversations/0123456789abcdef0123456789abcdef',
    headers: { ...json, ...headers },
    payload: JSON.stringify({ title: 'x' }),
  });
/** A 422 `value_error`: the contract's own check of an MCP server's URL. */
const badMcpUrl = (headers: Record<string, string> = {}) =>
  t.request({
    method: 'POST',
    url: '/api/settings',
    headers: { ...json, ...headers },
    payload: JSON.stringify({ mcp_config: { sse_servers: [{ url: 'example.com/sse' }], stdio_servers: [], shttp_servers: [] } }),
  });

describe("the server's own words", () => {
  it('are English without Accept-Language, as OpenHands clients read them', async () => {
    const conflict = await changePassword();
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toEqual({ detail: 'You sign in with a key or an identity provider: there is no password to change' });
    const missing = await unknownConversation();
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Conversation 0123456789abcdef0123456789abcdef not found' });
    const invalid = await badMcpUrl();
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().detail).toEqual([
      expect.objectContaining({
        type: 'value_error',
        loc: ['body', 'mcp_config', 'sse_servers', 0, 'url'],
        msg: 'Value error, URL must include a scheme (http:// or https://)',
      }),
    ]);
  });

  it('are in the language Accept-Language asks for', async () => {
    const conflict = await changePassword(GERMAN);
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toEqual({
      detail: 'Sie melden sich mit einem Schlüssel oder einem Identitätsanbieter an: Es gibt kein Passwort zu ändern',
    });
    const missing = await unknownConversation(GERMAN);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Unterhaltung 0123456789abcdef0123456789abcdef nicht gefunden' });
    const invalid = await badMcpUrl(GERMAN);
    expect(invalid.statusCode).toBe(422);
    // Pydantic's prefix stays: clients strip it by its English words.
    expect(invalid.json().detail).toEqual([
      expect.objectContaining({ type: 'value_error', msg: 'Value error, Die URL muss ein Schema enthalten (http:// oder https://)' }),
    ]);
  });

  it("words Settings' not-used reasons in the request's language", async () => {
    const reasons = async (headers: Record<string, string>) =>
      (await t.app.inject({ method: 'GET', url: '/openapi.json', headers })).json().info['x-settings-not-used'];
    expect((await reasons({})).user_consents_to_analytics).toBe('this server collects no analytics');
    expect((await reasons({ 'accept-language': 'ja' })).user_consents_to_analytics).toBe('このサーバーは分析データを収集しません');
  });
});

describe('the language of a request', () => {
  it('is the first of Accept-Language, by weight, that the console speaks; English otherwise', () => {
    expect(localeOf(undefined)).toBe('en');
    expect(localeOf('de')).toBe('de');
    expect(localeOf('de-AT,de;q=0.9')).toBe('de');
    expect(localeOf('pt-BR, fr;q=0.5, ja;q=0.8')).toBe('ja');
    expect(localeOf('zh-Hans-CN')).toBe('zh-CN');
    expect(localeOf('zh-TW')).toBe('en');
    expect(localeOf('de;q=0, *')).toBe('en');
    expect(localeOf('ko')).toBe('en');
  });
});
