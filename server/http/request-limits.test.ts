import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STRING_BYTES, tooDeepAt } from './json-limits';
import { startTestApp, type TestApp } from '../testing/test-app';

/** What a request may be (JSON nesting, sizes, valid Unicode, Host, CORS origin), checked before any route reads it. */

let t: TestApp;
let log = '';
beforeAll(async () => {
  t = await startTestApp({
    allowedHosts: ['console.example', '10.1.2.3', '::2'],
    corsOrigins: ['https://console.example'],
    logStream: { write: (line: string) => void (log += line) },
  });
  // A route that fails as a bug would, to see what a 500 looks like.
  t.app.get('/boom', async () => {
    throw new Error('a bug with internals in its message');
  });
});
afterAll(async () => {
  await t.close();
});

const postJson = (url: string, payload: string | Buffer, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url, payload, headers: { 'content-type': 'application/json', ...headers } });

describe('JSON nesting', () => {
  it('refuses a body nested 4,100 levels deep with a 422 before parsing it', async () => {
    const response = await postJson('/api/settings', `${'['.repeat(4100)}${']'.repeat(4100)}`);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      detail: [{ type: 'json_invalid', loc: ['body', 64], msg: 'JSON nested deeper than 64 levels' }],
    });
  });

  it('parses 64 levels (the refusal is then about the values, not the nesting)', async () => {
    const response = await postJson('/api/settings', `{"llm_model":${'['.repeat(63)}${']'.repeat(63)}}`);
    expect(response.statusCode).toBe(422);
    expect(response.json().detail[0]).toMatchObject({ loc: ['body', 'llm_model'], type: 'string_type' });
  });

  it('does not count brackets inside strings', () => {
    expect(tooDeepAt(JSON.stringify({ a: '['.repeat(100) }))).toBeUndefined();
    expect(tooDeepAt(JSON.stringify({ a: '\\"[['.repeat(100) }))).toBeUndefined();
    expect(tooDeepAt('['.repeat(65))).toBe(64);
  });
});

describe('a 500', () => {
  it('responds with only "Internal Server Error" and is logged with its request id', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.body).toBe('{"detail":"Internal Server Error"}');
    const line = log
      .split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text) as { msg: string; reqId?: string; err?: { message: string } })
      .find((entry) => entry.msg === 'request failed');
    expect(line?.reqId).toBeTruthy();
    expect(line?.err?.message).toBe('a bug with internals in its message');
  });
});

describe('Host header', () => {
  it.each(['evil.example', 'evil.example:3000', 'localhost.evil.example', '127.0.0.1.nip.io', '0.0.0.0', '[::ffff:7f00:1]'])(
    'refuses %s on open and API routes alike',
    async (host) => {
      for (const url of ['/alive', '/api/settings', '/openapi.json', '/settings']) {
        const response = await t.request({ method: 'GET', url, headers: { host } });
        expect(response.statusCode, url).toBe(400);
        expect(response.json()).toEqual({ detail: 'Invalid host header' });
      }
    },
  );

  it.each([
    'localhost',
    'localhost:3000',
    '127.0.0.1:8080',
    '127.9.9.9',
    '[::1]:3000',
    'app.localhost',
    'console.example:443',
    '10.1.2.3',
    '[::2]:80',
  ])('serves %s', async (host) => {
    const response = await t.request({ method: 'GET', url: '/alive', headers: { host } });
    expect(response.statusCode).toBe(200);
  });
});

describe('CORS origins', () => {
  const allowedOrigin = async (origin: string) =>
    (await t.request({ method: 'GET', url: '/api/v1/sandbox-specs/search', headers: { origin } })).headers['access-control-allow-origin'];

  it.each(['http://localhost:5173', 'https://127.0.0.1:8443', 'http://[::1]', 'https://console.example'])('allows %s', async (origin) => {
    expect(await allowedOrigin(origin)).toBe(origin);
  });

  it.each(['ws://localhost', 'javascript://localhost', 'file://localhost', 'http://console.example', 'https://evil.example', 'null'])(
    'does not allow %s',
    async (origin) => {
      expect(await allowedOrigin(origin)).toBeUndefined();
    },
  );
});

describe('sizes in request bodies', () => {
  const sse = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://mcp${i}.example/sse` }));
  const stdio = (extra: object) => ({ mcp_config: { stdio_servers: [{ name: 'one', command: 'npx', ...extra }] } });
  const env = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`V${i}`, 'x']));
  const secrets = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`S${i}`, { secret: 'x' }]));

  it.each([
    ['101 SSE servers', { mcp_config: { sse_servers: sse(101) } }, ['body', 'mcp_config', 'sse_servers']],
    ['101 arguments', stdio({ args: Array(101).fill('a') }), ['body', 'mcp_config', 'stdio_servers', 0, 'args']],
    ['101 env entries', stdio({ env: env(101) }), ['body', 'mcp_config', 'stdio_servers', 0, 'env']],
    ['a 256-character server name', stdio({ name: 'n'.repeat(256) }), ['body', 'mcp_config', 'stdio_servers', 0, 'name']],
    ['501 custom secrets', { secrets_store: { custom_secrets: secrets(501) } }, ['body', 'secrets_store', 'custom_secrets']],
    [
      'a 1,001-character description',
      { secrets_store: { custom_secrets: { A: { secret: 'x', description: 'd'.repeat(1001) } } } },
      ['body', 'secrets_store', 'custom_secrets', 'A', 'description'],
    ],
    ['a value over 64 KiB', { llm_api_key: 'k'.repeat(MAX_STRING_BYTES + 1) }, ['body', 'llm_api_key']],
    ['a value over 64 KiB in UTF-8', { llm_model: 'é'.repeat(MAX_STRING_BYTES / 2 + 1) }, ['body', 'llm_model']],
  ])('refuses %s with a 422 at its place, storing nothing', async (_name, body, loc) => {
    const before = (await t.getSettings()).body;
    const response = await t.postSettings(body);
    expect(response.statusCode).toBe(422);
    expect(response.json().detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
    expect(response.body.length).toBeLessThan(20_000); // the refused value is not echoed back whole
    expect((await t.getSettings()).body).toBe(before);
  });

  it('takes the largest sizes allowed', async () => {
    const response = await t.postSettings({
      llm_api_key: 'k'.repeat(MAX_STRING_BYTES),
      mcp_config: {
        sse_servers: sse(100),
        stdio_servers: [{ name: 'n'.repeat(255), command: 'npx', args: Array(100).fill('a'), env: env(100) }],
      },
      secrets_store: { custom_secrets: { ...secrets(499), D: { secret: 'x', description: 'd'.repeat(1000) } } },
    });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  });

  it('refuses long names and descriptions on the secrets routes', async () => {
    const long = await postJson('/api/secrets', JSON.stringify({ name: 'N'.repeat(256), value: 'v' }));
    expect(long.statusCode).toBe(422);
    const described = await postJson('/api/secrets', JSON.stringify({ name: 'OK', value: 'v', description: 'd'.repeat(1001) }));
    expect(described.statusCode).toBe(422);
    expect(described.json().detail[0].loc).toEqual(['body', 'description']);
  });
});

describe('text that is not valid Unicode', () => {
  it('refuses invalid UTF-8 instead of replacing it', async () => {
    const response = await postJson(
      '/api/secrets',
      Buffer.concat([Buffer.from('{"name":"BAD","value":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().detail[0]).toMatchObject({ type: 'json_invalid', loc: ['body', 0] });
    expect((await t.request({ method: 'GET', url: '/api/secrets' })).json().custom_secrets).not.toContainEqual(
      expect.objectContaining({ name: 'BAD' }),
    );
  });

  it.each(['"\\ud800"', '"a\\udc00b"', '"\\ude00\\ud83d"'])('refuses the lone surrogate in %s', async (literal) => {
    const response = await postJson('/api/secrets', `{"name":"LONE","value":${literal}}`);
    expect(response.statusCode).toBe(422);
    expect(response.json().detail[0]).toMatchObject({ type: 'string_unicode', loc: ['body', 'value'] });
  });

  it('refuses a lone surrogate in a key', async () => {
    const response = await postJson('/api/settings', '{"mcp_config":{"stdio_servers":[{"name":"a","command":"b","env":{"\\ud800":"x"}}]}}');
    expect(response.statusCode).toBe(422);
    expect(response.json().detail[0].loc).toEqual(['body', 'mcp_config', 'stdio_servers', 0, 'env', '\ud800']);
  });

  it('takes a surrogate pair (an emoji)', async () => {
    const response = await postJson('/api/secrets', '{"name":"EMOJI","value":"\\ud83d\\ude00"}');
    expect(response.statusCode).toBe(201);
  });
});
