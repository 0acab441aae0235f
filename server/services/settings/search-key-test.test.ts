import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closedPort } from '../../testing/closed-port';
import { startTavilyStandIn, type TavilyStandIn } from '../../testing/tavily-stand-in';
import { startTestApp, type TestApp } from '../../testing/test-app';

const KEY = 'tvly-accepted-6e2a91';
const WRONG = 'tvly-refused-0b7f35';

let tavily: TavilyStandIn;
let t: TestApp;
let log: string;
beforeEach(async () => {
  log = '';
  tavily = await startTavilyStandIn(KEY);
  t = await startTestApp({ tavilyApiUrl: tavily.url, logStream: { write: (line: string) => void (log += line) } });
});
afterEach(async () => {
  await t.close();
  await tavily.close();
});

const testKey = async (app: TestApp, body: unknown) => {
  const response = await app.request({
    method: 'POST',
    url: '/api/search/test',
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  return { status: response.statusCode, body: response.json(), text: response.body };
};

describe('POST /api/search/test', () => {
  it("asks Tavily's usage (no credit spent) with the stored key when none is typed, and says it was accepted", async () => {
    await t.postSettings({ search_api_key: KEY });
    expect(await testKey(t, { api_key: null })).toEqual({ status: 200, body: { ok: true }, text: '{"ok":true}' });
    expect(await testKey(t, {})).toMatchObject({ status: 200, body: { ok: true } });
    expect(tavily.requests.map(({ method, path, authorization }) => ({ method, path, authorization }))).toEqual([
      { method: 'GET', path: '/usage', authorization: `Bearer ${KEY}` },
      { method: 'GET', path: '/usage', authorization: `Bearer ${KEY}` },
    ]);
  });

  it("tests a typed key instead of the stored one, and says Tavily's refusal in words, never with the key", async () => {
    await t.postSettings({ search_api_key: KEY });
    const refused = await testKey(t, { api_key: ` ${WRONG} ` });
    expect(refused).toMatchObject({
      status: 200,
      body: { ok: false, error: 'Tavily refused the search API key (HTTP 401: Unauthorized: missing or invalid API key.).' },
    });
    expect(tavily.requests.at(-1)?.authorization).toBe(`Bearer ${WRONG}`);
    expect(refused.text).not.toContain(WRONG);
    expect(log).toContain('search key test done');
    expect(log).not.toContain(WRONG);
    expect(log).not.toContain(KEY);
  });

  it('says there is nothing to test without a typed or stored key, and asks nobody', async () => {
    expect((await testKey(t, { api_key: null })).body).toEqual({
      ok: false,
      error: 'There is no search API key to test: type one, or save one first.',
    });
    expect((await testKey(t, { api_key: '  ' })).body).toMatchObject({ ok: false });
    expect(tavily.requests).toEqual([]);
  });

  it('says which address it could not reach (TAVILY_API_URL)', async () => {
    const port = await closedPort();
    const elsewhere = await startTestApp({ tavilyApiUrl: `http://127.0.0.1:${port}` });
    try {
      const { body } = await testKey(elsewhere, { api_key: KEY });
      expect(body).toMatchObject({
        ok: false,
        error: expect.stringMatching(new RegExp(`^Cannot reach Tavily at http://127\\.0\\.0\\.1:${port}/usage \\(.*ECONNREFUSED`)),
      });
    } finally {
      await elsewhere.close();
    }
  });

  it('refuses a key that is not text with a 422 that does not echo it', async () => {
    const { status, text } = await testKey(t, { api_key: 12345678901 });
    expect(status).toBe(422);
    expect(text).toContain('"loc":["body","api_key"]');
    expect(text).not.toContain('12345678901');
  });
});
