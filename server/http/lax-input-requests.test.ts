import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/test-app';

/**
 * Accept what OpenHands accepts: the inputs Pydantic's lax mode and OpenHands' MCP
 * before-validators take are accepted and stored normalised; what they refuse is refused with
 * Pydantic's error types.
 */
let t: TestApp;
const CONVERSATION = 'd'.repeat(32);

/** Two more conversations, in another sandbox, to page through. */
const PAGED = ['e'.repeat(32), 'f'.repeat(32)];

beforeAll(async () => {
  t = await startTestApp();
  const now = new Date().toISOString();
  const conversation = (id: string, sandbox_id: string) => ({
    id,
    user_id: 'default',
    sandbox_id,
    sandbox_created: 0,
    title: 'kept',
    pr_number: '[]',
    skills: '[]',
    archived: 0,
    created_at: now,
    updated_at: now,
  });
  await t.db
    .insertInto('app_conversations')
    .values([conversation(CONVERSATION, 'gone'), ...PAGED.map((id) => conversation(id, 'paged'))])
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
      // Taken, but the account's (the owner has no address).
      email_verified: null,
    });
  });

  it('takes a boolean word in a query and in a conversation patch', async () => {
    const search = async (archived: string) =>
      (await get(`/api/v1/app-conversations/search?sandbox_id__eq=gone&archived=${archived}`)).json().items as { id: string }[];
    expect(await search('no')).toHaveLength(1);
    expect((await send('PATCH', `/api/v1/app-conversations/${CONVERSATION}`, { archived: 'yes' })).statusCode).toBe(200);
    expect(await search('On')).toHaveLength(1);
    expect(await search('0')).toHaveLength(0);
    expect((await send('PATCH', `/api/v1/app-conversations/${CONVERSATION}`, { archived: 0 })).statusCode).toBe(200);
    expect((await search('false')).map((item) => item.id)).toEqual([CONVERSATION]);
    expect(await search('true')).toHaveLength(0);
  });

  it.each(['1', '1.0', '+1', '001', ' 1 '])('takes limit=%j', async (limit) => {
    const response = await get(`/api/v1/app-conversations/search?sandbox_id__eq=paged&limit=${encodeURIComponent(limit)}`);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json();
    expect(page.items).toHaveLength(1);
    expect(PAGED).toContain(page.items[0].id);
    expect(page.next_page_id).not.toBeNull();
  });
});

type Refusal = [body: Record<string, unknown>, expected: Record<string, unknown>];

describe("Pydantic's error types", () => {
  it.each<Refusal>([
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
    // only whole numbers other than 0 and 1 are "unable to interpret"
    [{ confirmation_mode: 0.5 }, entry('bool_type', ['body', 'confirmation_mode'], 'Input should be a valid boolean', 0.5)],
    ...['inf', '-Infinity', 'nan', '1e400'].map((input): Refusal => [
      { max_budget_per_task: input },
      entry('finite_number', ['body', 'max_budget_per_task'], 'Input should be a finite number', input),
    ]),
    ...['9007199254740992', 9007199254740992].map((input): Refusal => [
      { max_iterations: input },
      {
        ...entry(
          'less_than_equal',
          ['body', 'max_iterations'],
          'Input is too large: integers must be between -9007199254740991 and 9007199254740991 (2^53 - 1) here',
          input,
        ),
        ctx: { le: 9007199254740991 },
      },
    ]),
    [
      // false is 0 to Pydantic, and 0 is too few
      { max_iterations: false },
      { ...entry('greater_than_equal', ['body', 'max_iterations'], 'Input should be greater than or equal to 1', false), ctx: { ge: 1 } },
    ],
  ])('refuses %j as Pydantic does', async (body, expected) => {
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
  ])('refuses GET %s as FastAPI does', async (url, expected) => {
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
          // OpenHands' `v or []` / `v or {}`
          { name: 'falsy', command: 'npx', args: false, env: 0 },
          { name: 'zero', command: 'npx', args: 0, env: false },
          { name: 'shell', command: 'npx', args: `a $'x\\ty' $"q"` },
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
        { name: 'falsy', command: 'npx', args: [], env: {} },
        { name: 'zero', command: 'npx', args: [], env: {} },
        // shlex.split has no $'…' quoting
        { name: 'shell', command: 'npx', args: ['a', '$x\\ty', '$q'], env: {} },
      ],
    });
  });

  it('responds in OpenHands’ words to a command line or env string it cannot read', async () => {
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
        // a command line may carry a token: its input is never echoed, as env's is not
        input: null,
        ctx: { error: {} },
      },
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
    // add-git-providers checks mcp_config and otherwise ignores it, as OpenHands does: the stored servers stay
    expect((await t.getSettings()).json().mcp_config.sse_servers).toEqual([
      { url: 'https://mcp.example.com/sse', api_key: null, api_key_set: false },
    ]);
    // the string is checked as the URL of a full entry
    const refused = await send('POST', '/api/add-git-providers', { provider_tokens: {}, mcp_config: { sse_servers: ['example.com'] } });
    expect(refused.json().detail).toEqual([
      {
        type: 'value_error',
        loc: ['body', 'mcp_config', 'sse_servers', 0, 'url'],
        msg: 'Value error, URL must include a scheme (http:// or https://)',
        input: 'example.com',
        ctx: { error: {} },
      },
    ]);
  });
});
