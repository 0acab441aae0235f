import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const valueError = (loc: (string | number)[], message: string, input: unknown) => ({
  type: 'value_error',
  loc: ['body', ...loc],
  msg: `Value error, ${message}`,
  input,
  ctx: { error: {} },
});

/** [name, body sent as JSON, the complete `detail` expected back] */
const BAD_BODIES: [string, unknown, unknown[]][] = [
  ['an array body', [1, 2], [{ type: 'dict_type', loc: ['body'], msg: 'Input should be a valid dictionary', input: [1, 2] }]],
  ['a string body', 'settings', [{ type: 'dict_type', loc: ['body'], msg: 'Input should be a valid dictionary', input: 'settings' }]],
  [
    'a number where a string goes',
    { llm_model: 42 },
    [{ type: 'string_type', loc: ['body', 'llm_model'], msg: 'Input should be a valid string', input: 42 }],
  ],
  [
    'a string where an integer goes',
    { max_iterations: 'ten' },
    [
      {
        type: 'int_parsing',
        loc: ['body', 'max_iterations'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: 'ten',
      },
    ],
  ],
  [
    'a fraction where an integer goes',
    { max_iterations: 2.5 },
    [
      {
        type: 'int_from_float',
        loc: ['body', 'max_iterations'],
        msg: 'Input should be a valid integer, got a number with a fractional part',
        input: 2.5,
      },
    ],
  ],
  [
    'a string where a boolean goes',
    { confirmation_mode: 'sometimes' },
    [
      {
        type: 'bool_parsing',
        loc: ['body', 'confirmation_mode'],
        msg: 'Input should be a valid boolean, unable to interpret input',
        input: 'sometimes',
      },
    ],
  ],
  [
    'null for a non-nullable boolean',
    { enable_default_condenser: null },
    [{ type: 'bool_type', loc: ['body', 'enable_default_condenser'], msg: 'Input should be a valid boolean', input: null }],
  ],
  [
    'a string for max_budget_per_task',
    { max_budget_per_task: 'five' },
    [
      {
        type: 'float_parsing',
        loc: ['body', 'max_budget_per_task'],
        msg: 'Input should be a valid number, unable to parse string as a number',
        input: 'five',
      },
    ],
  ],
  [
    'condenser_max_size below 20',
    { condenser_max_size: 10 },
    [valueError(['condenser_max_size'], 'condenser_max_size must be at least 20', 10)],
  ],
  [
    'max_iterations of 0',
    { max_iterations: 0 },
    [
      {
        type: 'greater_than_equal',
        loc: ['body', 'max_iterations'],
        msg: 'Input should be greater than or equal to 1',
        input: 0,
        ctx: { ge: 1 },
      },
    ],
  ],
  [
    'an LLM base URL without a scheme',
    { llm_base_url: 'localhost:11434' },
    [valueError(['llm_base_url'], 'URL must start with http:// or https://', 'localhost:11434')],
  ],
  [
    'a git email without @',
    { git_user_email: 'ada' },
    [valueError(['git_user_email'], 'Enter an email address such as name@example.com', 'ada')],
  ],
  [
    'mcp_config that is a list',
    { mcp_config: [] },
    [{ type: 'dict_type', loc: ['body', 'mcp_config'], msg: 'Input should be a valid dictionary', input: [] }],
  ],
  [
    'an extra key in mcp_config',
    { mcp_config: { foo: 1 } },
    [{ type: 'extra_forbidden', loc: ['body', 'mcp_config', 'foo'], msg: 'Extra inputs are not permitted', input: 1 }],
  ],
  [
    'sse_servers null',
    { mcp_config: { sse_servers: null } },
    [{ type: 'list_type', loc: ['body', 'mcp_config', 'sse_servers'], msg: 'Input should be a valid list', input: null }],
  ],
  [
    'an SSE URL without a scheme',
    { mcp_config: { sse_servers: [{ url: 'example.com' }] } },
    [valueError(['mcp_config', 'sse_servers', 0, 'url'], 'URL must include a scheme (http:// or https://)', 'example.com')],
  ],
  [
    'an SSE URL with an ftp scheme',
    { mcp_config: { sse_servers: [{ url: 'ftp://files.example.com' }] } },
    [valueError(['mcp_config', 'sse_servers', 0, 'url'], 'URL scheme must be http, https, ws, or wss', 'ftp://files.example.com')],
  ],
  [
    'an SHTTP URL that is blank',
    { mcp_config: { shttp_servers: [{ url: '   ' }] } },
    [valueError(['mcp_config', 'shttp_servers', 0, 'url'], 'URL cannot be empty', '')],
  ],
  [
    'an SHTTP URL that is not a string',
    { mcp_config: { shttp_servers: [{ url: 8080 }] } },
    [{ type: 'string_type', loc: ['body', 'mcp_config', 'shttp_servers', 0, 'url'], msg: 'Input should be a valid string', input: 8080 }],
  ],
  [
    'SHTTP timeout 0',
    { mcp_config: { shttp_servers: [{ url: 'https://a.example/mcp', timeout: 0 }] } },
    [valueError(['mcp_config', 'shttp_servers', 0, 'timeout'], 'Timeout must be positive', 0)],
  ],
  [
    'SHTTP timeout 3601',
    { mcp_config: { shttp_servers: [{ url: 'https://a.example/mcp', timeout: 3601 }] } },
    [valueError(['mcp_config', 'shttp_servers', 0, 'timeout'], 'Timeout cannot exceed 3600 seconds', 3601)],
  ],
  [
    'a stdio name with a space',
    { mcp_config: { stdio_servers: [{ name: 'my server', command: 'uvx' }] } },
    [
      valueError(
        ['mcp_config', 'stdio_servers', 0, 'name'],
        'Server name can only contain letters, numbers, hyphens, and underscores',
        'my server',
      ),
    ],
  ],
  [
    'a stdio name that is not a string',
    { mcp_config: { stdio_servers: [{ name: null, command: 'uvx' }] } },
    [{ type: 'string_type', loc: ['body', 'mcp_config', 'stdio_servers', 0, 'name'], msg: 'Input should be a valid string', input: null }],
  ],
  [
    'a stdio command with a space',
    { mcp_config: { stdio_servers: [{ name: 'fetch', command: 'npx -y fetch' }] } },
    [
      valueError(
        ['mcp_config', 'stdio_servers', 0, 'command'],
        'Command should be a single executable without spaces (use arguments field for parameters)',
        'npx -y fetch',
      ),
    ],
  ],
  [
    'a stdio entry without a command',
    { mcp_config: { stdio_servers: [{ name: 'fetch' }] } },
    [{ type: 'missing', loc: ['body', 'mcp_config', 'stdio_servers', 0, 'command'], msg: 'Field required', input: null }],
  ],
  [
    'stdio args that are a number',
    { mcp_config: { stdio_servers: [{ name: 'fetch', command: 'uvx', args: 3 }] } },
    // a command line may carry a token: not sent back
    [{ type: 'list_type', loc: ['body', 'mcp_config', 'stdio_servers', 0, 'args'], msg: 'Input should be a valid list', input: null }],
  ],
  [
    'a bad env key in object form',
    { mcp_config: { stdio_servers: [{ name: 'fetch', command: 'uvx', env: { '1BAD': 'x' } }] } },
    [
      valueError(
        ['mcp_config', 'stdio_servers', 0, 'env'],
        "Invalid environment variable name '1BAD'. Must start with letter or underscore, contain only alphanumeric characters and underscores",
        null, // env values may be secrets: not sent back
      ),
    ],
  ],
  [
    'a non-string env value',
    { mcp_config: { stdio_servers: [{ name: 'fetch', command: 'uvx', env: { A: 1 } }] } },
    [
      {
        type: 'string_type',
        loc: ['body', 'mcp_config', 'stdio_servers', 0, 'env', 'A'],
        msg: 'Input should be a valid string',
        input: null,
      },
    ],
  ],
  [
    'duplicate stdio names',
    {
      mcp_config: {
        stdio_servers: [
          { name: 'fetch', command: 'uvx' },
          { name: 'fetch', command: 'npx' },
        ],
      },
    },
    [valueError(['mcp_config', 'stdio_servers', 1, 'name'], "Duplicate MCP server name 'fetch'", 'fetch')],
  ],
  [
    'the same URL as SSE and SHTTP server',
    { mcp_config: { sse_servers: [{ url: 'https://a.example/mcp' }], shttp_servers: [{ url: 'https://a.example/mcp' }] } },
    [valueError(['mcp_config', 'shttp_servers', 0, 'url'], 'Duplicate MCP server URLs are not allowed', 'https://a.example/mcp')],
  ],
];

describe('422 responses, shaped like FastAPI', () => {
  it.each(BAD_BODIES)('rejects %s', async (_name, body, detail) => {
    const response = await t.postSettings(body);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail });
  });

  it('reports every problem of a body, not only the first', async () => {
    const response = await t.postSettings({
      llm_model: 1,
      max_iterations: 'x',
      mcp_config: { stdio_servers: [{ name: '', command: '' }] },
    });
    const locs = response.json().detail.map((d: { loc: unknown[] }) => d.loc);
    expect(locs).toHaveLength(4);
    expect(locs).toEqual(
      expect.arrayContaining([
        ['body', 'llm_model'],
        ['body', 'max_iterations'],
        ['body', 'mcp_config', 'stdio_servers', 0, 'name'],
        ['body', 'mcp_config', 'stdio_servers', 0, 'command'],
      ]),
    );
  });

  it.each([
    ['malformed JSON', '{"llm_model": ', 14],
    ['a trailing comma', '{"a": 1,}', 8],
  ])('returns json_invalid for %s', async (_name, payload, position) => {
    const response = await t.request({ method: 'POST', url: '/api/settings', payload, headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(422);
    const [entry] = response.json().detail;
    expect(entry).toMatchObject({ type: 'json_invalid', loc: ['body', position], msg: 'JSON decode error', input: {} });
    expect(typeof entry.ctx.error).toBe('string');
  });

  it('refuses prototype poisoning as invalid JSON', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/settings',
      payload: '{"__proto__": {"admin": true}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail[0].type).toBe('json_invalid');
  });

  it.each([
    ['no body at all', undefined, {}],
    ['an empty JSON body', '', { 'content-type': 'application/json' }],
    ['a JSON null body', 'null', { 'content-type': 'application/json' }],
  ])('returns missing for %s', async (_name, payload, headers) => {
    const response = await t.request({ method: 'POST', url: '/api/settings', payload, headers });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] });
  });

  it('takes an empty JSON body as none on a route that needs no body', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/unset-provider-tokens',
      payload: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Unset Git provider tokens' });
  });

  it('never responds with 5xx to a sample of odd bodies', async () => {
    const odd = [
      0,
      true,
      '""',
      '[]',
      '{"mcp_config": {"stdio_servers": [[]]}}',
      '{"mcp_config": {"sse_servers": [null]}}',
      '{"secrets_store": null}',
      '{"max_budget_per_task": 1e400}',
      '"\\u0000"',
      '{"a":'.repeat(50),
    ];
    for (const payload of odd) {
      const response = await t.request({
        method: 'POST',
        url: '/api/settings',
        payload: String(payload),
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode, String(payload)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, String(payload)).toBeLessThan(500);
    }
  });
});
