import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './testing/test-app';

/**
 * Issue 16, "accept what OpenHands accepts": the inputs Pydantic's lax mode and OpenHands' MCP
 * before-validators take are accepted and stored normalised; what they refuse is answered with
 * Pydantic's error types.
 */
let t: TestApp;
const CONVERSATION = 'd'.repeat(32);

beforeAll(async () => {
  t = await startTestApp();
  const now = new Date().toISOString();
  await t.db
    .insertInto('app_conversations')
    .values({
      id: CONVERSATION,
      user_id: 'default',
      sandbox_id: 'gone',
      sandbox_created: 0,
      title: 'kept',
      pr_number: '[]',
      skills: '[]',
      archived: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
});
afterAll(async () => {
  await t.close();
});

const get = async (url: string) => t.request({ method: 'GET', url });
const send = (method: 'POST' | 'PATCH', url: string, body: unknown) =>
  t.request({ method, url, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const entry = (type: string, loc: (string | number)[], msg: string, input: unknown) => ({ type, loc, msg, input });

describe('lax numbers and booleans', () => {
  it('stores numeric strings, whole floats, 0/1 and boolean words as their values', async () => {
    const response = await t.postSettings({
      max_iterations: ' 1_000 ',
      condenser_max_size: '40.0',
      remote_runtime_resource_factor: 2.0,
      max_budget_per_task: '2.5',
      confirmation_mode: 'Yes',
      enable_sound_notifications: 'on',
      enable_default_condenser: 0,
      enable_proactive_conversation_starters: 'F',
      enable_solvability_analysis: '1',
      user_consents_to_analytics: 'n',
      v1_enabled: 'TRUE',
      email_verified: 'off',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await t.getSettings()).json()).toMatchObject({
      max_iterations: 1000,
      condenser_max_size: 40,
      remote_runtime_resource_factor: 2,
      max_budget_per_task: 2.5,
      confirmation_mode: true,
      enable_sound_notifications: true,
      enable_default_condenser: false,
      enable_proactive_conversation_starters: false,
      enable_solvability_analysis: true,
      user_consents_to_analytics: false,
      v1_enabled: true,
      email_verified: false,
    });
  });

  it('takes a boolean word in a query and in a conversation patch', async () => {
    expect((await get('/api/v1/app-conversations/search?archived=no')).json().items).toHaveLength(1);
    expect((await send('PATCH', `/api/v1/app-conversations/${CONVERSATION}`, { archived: 'yes' })).statusCode).toBe(200);
    expect((await get('/api/v1/app-conversations/search?archived=On')).json().items).toHaveLength(1);
    expect((await get('/api/v1/app-conversations/search?archived=0')).json().items).toHaveLength(0);
    expect((await send('PATCH', `/api/v1/app-conversations/${CONVERSATION}`, { archived: 0 })).statusCode).toBe(200);
  });

  it.each(['5', '5.0', '+5', '005', ' 5 '])('takes limit=%s', async (limit) => {
    const response = await get(`/api/v1/sandboxes/search?limit=${encodeURIComponent(limit)}`);
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe("Pydantic's error types", () => {
  it.each([
    [
      { max_iterations: '5.5' },
      entry('int_parsing', ['body', 'max_iterations'], 'Input should be a valid integer, unable to parse string as an integer', '5.5'),
    ],
    [
      { max_iterations: '1__0' },
      entry('int_parsing', ['body', 'max_iterations'], 'Input should be a valid integer, unable to parse string as an integer', '1__0'),
    ],
    [
      { max_budget_per_task: '1,5' },
      entry('float_parsing', ['body', 'max_budget_per_task'], 'Input should be a valid number, unable to parse string as a number', '1,5'),
    ],
    [
      { confirmation_mode: 2 },
      entry('bool_parsing', ['body', 'confirmation_mode'], 'Input should be a valid boolean, unable to interpret input', 2),
    ],
    [
      { confirmation_mode: ' yes' },
      entry('bool_parsing', ['body', 'confirmation_mode'], 'Input should be a valid boolean, unable to interpret input', ' yes'),
    ],
    [{ confirmation_mode: [] }, entry('bool_type', ['body', 'confirmation_mode'], 'Input should be a valid boolean', [])],
    [
      // false is 0 to Pydantic, and 0 is too few
      { max_iterations: false },
      { ...entry('greater_than_equal', ['body', 'max_iterations'], 'Input should be greater than or equal to 1', false), ctx: { ge: 1 } },
    ],
  ])('answers %j', async (body, expected) => {
    const response = await t.postSettings(body);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: [expected] });
  });

  it('reports a converted value that is refused all the same as it was sent', async () => {
    const response = await t.postSettings({ max_iterations: '0' });
    expect(response.json().detail).toEqual([
      {
        type: 'greater_than_equal',
        loc: ['body', 'max_iterations'],
        msg: 'Input should be greater than or equal to 1',
        input: '0',
        ctx: { ge: 1 },
      },
    ]);
    const query = await get('/api/v1/sandboxes/search?limit=0');
    expect(query.json().detail[0]).toMatchObject({ type: 'greater_than_equal', loc: ['query', 'limit'], input: '0' });
  });

  it.each([
    [
      '/api/v1/sandboxes/search?limit=abc',
      entry('int_parsing', ['query', 'limit'], 'Input should be a valid integer, unable to parse string as an integer', 'abc'),
    ],
    [
      '/api/v1/sandboxes/search?limit=5.5',
      entry('int_parsing', ['query', 'limit'], 'Input should be a valid integer, unable to parse string as an integer', '5.5'),
    ],
    [
      '/api/v1/app-conversations/search?archived=maybe',
      entry('bool_parsing', ['query', 'archived'], 'Input should be a valid boolean, unable to interpret input', 'maybe'),
    ],
    ['/api/v1/sandboxes', entry('missing', ['query', 'id'], 'Field required', null)],
    ['/api/v1/sandbox-specs', entry('missing', ['query', 'id'], 'Field required', null)],
    ['/api/v1/events', entry('missing', ['query', 'id'], 'Field required', null)],
    ['/api/v1/app-conversations/start-tasks', entry('missing', ['query', 'ids'], 'Field required', null)],
  ])('answers GET %s', async (url, expected) => {
    const response = await get(url);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: [expected] });
  });
});

describe('MCP shorthands', () => {
  it('stores URL strings, a command line and "A=1,B=2" in their full forms', async () => {
    const response = await t.postSettings({
      mcp_config: {
        sse_servers: ['https://mcp.example.com/sse'],
        shttp_servers: [' https://mcp.example.com/mcp ', { url: 'https://other.example.com/mcp', timeout: '30' }],
        stdio_servers: [
          { name: 'fetch', command: 'uvx', args: '-y "mcp server" --path=a\\ b', env: 'A=1, B = two=2 ,,' },
          { name: 'plain', command: 'npx', args: null, env: null },
          { name: 'blank', command: 'npx', args: '   ', env: '' },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await t.getSettings()).json().mcp_config).toEqual({
      sse_servers: [{ url: 'https://mcp.example.com/sse', api_key: null, api_key_set: false }],
      shttp_servers: [
        { url: 'https://mcp.example.com/mcp', api_key: null, api_key_set: false, timeout: 60 },
        { url: 'https://other.example.com/mcp', api_key: null, api_key_set: false, timeout: 30 },
      ],
      stdio_servers: [
        { name: 'fetch', command: 'uvx', args: ['-y', 'mcp server', '--path=a b'], env: { A: '1', B: ' two=2' } },
        { name: 'plain', command: 'npx', args: [], env: {} },
        { name: 'blank', command: 'npx', args: [], env: {} },
      ],
    });
  });

  it('answers OpenHands’ words for a command line or env string it cannot read', async () => {
    const at = (field: string) => ['body', 'mcp_config', 'stdio_servers', 0, field];
    const response = await t.postSettings({
      mcp_config: { stdio_servers: [{ name: 'fetch', command: 'uvx', args: '--config "unclosed', env: 'A=1,B' }] },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toEqual([
      {
        type: 'value_error',
        loc: at('args'),
        msg: `Value error, Invalid argument format: No closing quotation. Use shell-like format, e.g., "arg1 arg2" or '--config "value with spaces"'`,
        input: '--config "unclosed',
        ctx: { error: {} },
      },
      // env may hold secrets: its input is never echoed
      {
        type: 'value_error',
        loc: at('env'),
        msg: "Value error, Environment variable 'B' must be in KEY=VALUE format",
        input: null,
        ctx: { error: {} },
      },
    ]);
  });

  it('checks a URL given as a string like one given in an object', async () => {
    const response = await t.postSettings({ mcp_config: { sse_servers: ['example.com'] } });
    expect(response.json().detail).toEqual([
      {
        type: 'value_error',
        loc: ['body', 'mcp_config', 'sse_servers', 0, 'url'],
        msg: 'Value error, URL must include a scheme (http:// or https://)',
        input: 'example.com',
        ctx: { error: {} },
      },
    ]);
  });

  it('keeps the request caps for the shorthands', async () => {
    const args = Array.from({ length: 101 }, (_, i) => `a${i}`).join(' ');
    const env = Array.from({ length: 101 }, (_, i) => `V${i}=x`).join(',');
    const response = await t.postSettings({ mcp_config: { stdio_servers: [{ name: 'many', command: 'npx', args, env }] } });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail.map((d: { type: string; loc: unknown[] }) => [d.type, d.loc.at(-1)])).toEqual([
      ['too_long', 'args'],
      ['value_error', 'env'],
    ]);
  });

  it('takes the shorthands in an MCP test and in add-git-providers', async () => {
    const test = await send('POST', '/api/mcp/test?timeout=1.0', {
      kind: 'stdio',
      name: 'nothing',
      command: 'no-such-mcp-command',
      args: '--a "b c"',
      env: 'A=1',
    });
    expect(test.statusCode, test.body).toBe(200);
    expect(test.json()).toMatchObject({ ok: false });
    const providers = await send('POST', '/api/add-git-providers', {
      provider_tokens: {},
      mcp_config: { sse_servers: ['https://a.example/sse'] },
    });
    expect(providers.statusCode, providers.body).toBe(200);
  });
});
