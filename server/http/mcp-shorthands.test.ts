import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { mcpConfigSchema } from '../../src/contract/mcp';
import { mcpConfigRequestSchema, mcpTestRequestSchema } from './requests';
import { expandArgs, expandEnv, expandServer } from './mcp-shorthands';

describe('OpenHands’ MCP shorthands', () => {
  it.each([
    ['-y mcp-remote https://x', ['-y', 'mcp-remote', 'https://x']],
    ['--config "path with spaces" --debug', ['--config', 'path with spaces', '--debug']],
    ["\"it's\" o'k'", ["it's", 'ok']],
    ['a\\ b "c\\"d"', ['a b', 'c"d']],
    ['  one  ', ['one']],
    ['   ', []],
    ['', []],
    [null, []],
    // OpenHands' `v or []`
    [false, []],
    [0, []],
    ["a $'b c'", ['a', '$b c']],
    [
      ['kept', 'as is'],
      ['kept', 'as is'],
    ],
  ])('args %j', (args, expected) => {
    expect(expandArgs(args)).toEqual({ value: expected });
  });

  it.each([
    ['"open', 'No closing quotation'],
    ['end\\', 'No escaped character'],
  ])('args %j cannot be split', (args, reason) => {
    expect(expandArgs(args)).toEqual({
      problem: `Invalid argument format: ${reason}. Use shell-like format, e.g., "arg1 arg2" or '--config "value with spaces"'`,
    });
  });

  it.each([
    ['A=1,B=2', { A: '1', B: '2' }],
    [' A = 1 , , B==2 ', { A: ' 1', B: '=2' }],
    ['URL=https://x?a=b', { URL: 'https://x?a=b' }],
    ['', {}],
    ['  ', {}],
    [null, {}],
    // OpenHands' `v or {}`
    [false, {}],
    [0, {}],
    [{ KEPT: 'x' }, { KEPT: 'x' }],
  ])('env %j', (env, expected) => {
    expect(expandEnv(env)).toEqual({ value: expected });
  });

  it.each([
    ['A=1,B', "Environment variable 'B' must be in KEY=VALUE format"],
    ['=1', 'Environment variable key cannot be empty'],
    [
      '1A=x',
      "Invalid environment variable name '1A'. Must start with letter or underscore, contain only alphanumeric characters and underscores",
    ],
  ])('env %j is refused', (env, problem) => {
    expect(expandEnv(env)).toEqual({ problem });
  });

  it('reads a server given as a string as its URL', () => {
    expect(expandServer('https://x/sse')).toEqual({ value: { url: 'https://x/sse' } });
    expect(expandServer({ url: 'https://x/sse' })).toEqual({ value: { url: 'https://x/sse' } });
  });

  it('are taken by the request schemas only: the console’s own schema stays strict', () => {
    const shorthand = {
      sse_servers: ['https://a.example/sse'],
      stdio_servers: [{ name: 'fetch', command: 'uvx', args: 'mcp-server-fetch --x "y z"', env: 'A=1' }],
    };
    expect(z.parse(mcpConfigRequestSchema, shorthand)).toEqual({
      sse_servers: [{ url: 'https://a.example/sse' }],
      stdio_servers: [{ name: 'fetch', command: 'uvx', args: ['mcp-server-fetch', '--x', 'y z'], env: { A: '1' } }],
      shttp_servers: [],
    });
    expect(z.safeParse(mcpConfigSchema, shorthand).success).toBe(false);
    expect(z.parse(mcpTestRequestSchema, { kind: 'stdio', name: 'n', command: 'c', args: 'a b', env: null })).toMatchObject({
      args: ['a', 'b'],
      env: {},
    });
  });

  it('reports a problem at the field, as a custom issue', () => {
    const result = z.safeParse(mcpConfigRequestSchema, { stdio_servers: [{ name: 'n', command: 'c', env: 'oops' }] });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        code: 'custom',
        path: ['stdio_servers', 0, 'env'],
        message: "Environment variable 'oops' must be in KEY=VALUE format",
      }),
    ]);
  });
});
