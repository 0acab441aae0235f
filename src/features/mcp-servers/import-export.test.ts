import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import type { McpConfigResponse } from '../../contract/mcp';
import { splitCommandLine } from '../../components/command-line';
import { NUL_PROBLEM } from '../../contract/rules';
import { envRowProblems, envToRows, rowsToEnv } from './env';
import { parseMcpServersJson, toMcpServersJson } from './import-export';

const existing: McpConfigResponse = {
  stdio_servers: [{ name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], env: {} }],
  sse_servers: [{ url: 'https://taken.example/sse', api_key: null, api_key_set: true }],
  shttp_servers: [],
};

describe('splitCommandLine', () => {
  it.each([
    ['-y @modelcontextprotocol/server-filesystem /tmp', ['-y', '@modelcontextprotocol/server-filesystem', '/tmp']],
    [`--name "Ada Lovelace" --path '/my docs' plain\\ space`, ['--name', 'Ada Lovelace', '--path', '/my docs', 'plain space']],
    ['  ', []],
  ])('splits %j shell-style', (line, args) => {
    expect(splitCommandLine(line)).toEqual({ ok: true, args });
  });

  it('says when a quote is left open', () => {
    expect(splitCommandLine('--name "Ada')).toEqual({ ok: false, error: 'A quote is not closed' });
  });
});

describe('env rows', () => {
  it('convert to and from the env object, leaving blank rows out', () => {
    const rows = envToRows({ A: '1', B: 'two' });
    expect(rows).toEqual([
      { key: 'A', value: '1' },
      { key: 'B', value: 'two' },
    ]);
    expect(rowsToEnv([...rows, { key: '', value: '' }, { key: ' C ', value: 'x' }])).toEqual({ A: '1', B: 'two', C: 'x' });
  });

  it('name bad keys, repeated keys, values without a key and values no process can hold', () => {
    const problems = envRowProblems(
      [
        { key: 'TOKEN', value: 'a' },
        { key: '1BAD', value: 'b' },
        { key: 'TOKEN', value: 'c' },
        { key: '', value: 'orphan' },
        { key: '', value: '' },
        { key: 'NUL', value: 'a\0b' },
      ],
      i18n,
    );
    expect([...problems]).toEqual([
      ['1.key', 'Use letters, digits and underscores, not starting with a digit'],
      ['2.key', 'TOKEN is already set above'],
      ['3.key', 'Give this variable a name'],
      ['5.value', i18n._(NUL_PROBLEM)],
    ]);
  });
});

describe('parseMcpServersJson', () => {
  it('reads stdio and remote servers, with a bearer token as the API key', () => {
    const text = JSON.stringify({
      mcpServers: {
        github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'x' } },
        linear: { url: 'https://mcp.linear.app/sse', headers: { Authorization: 'Bearer lin_123' } },
        docs: { type: 'http', url: 'https://docs.example/mcp' },
      },
    });
    const result = parseMcpServersJson(text, existing, i18n);
    expect(result).toEqual({
      ok: true,
      items: [
        {
          name: 'github',
          entry: {
            kind: 'stdio',
            name: 'github',
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-github'],
            env: { GITHUB_TOKEN: 'x' },
          },
        },
        {
          name: 'linear',
          entry: { kind: 'sse', url: 'https://mcp.linear.app/sse', api_key: 'lin_123' },
          warnings: ['The name "linear" is not kept: remote servers are stored by their URL only.'],
        },
        {
          name: 'docs',
          entry: { kind: 'shttp', url: 'https://docs.example/mcp', api_key: null },
          warnings: ['The name "docs" is not kept: remote servers are stored by their URL only.'],
        },
      ],
    });
  });

  it('reports invalid entries one by one and keeps the valid ones (mixed)', () => {
    const text = JSON.stringify({
      servers: {
        'my server': { command: 'uvx' },
        fetch: { command: 'uvx', args: ['other'] },
        spaced: { command: 'npx -y thing' },
        remote: { url: 'https://taken.example/sse' },
        odd: { url: 'https://x.example/mcp', type: 'grpc' },
        nothing: {},
        keyed: { url: 'https://k.example/mcp', headers: { 'X-Api-Key': 'k' } },
        ok: { command: 'uvx', args: ['mcp-ok'], env: { '1BAD': 'x' } },
        good: { command: 'uvx', args: ['mcp-good'] },
      },
    });
    const result = parseMcpServersJson(text, existing, i18n);
    if (!result.ok) throw new Error(result.error);
    const byName = Object.fromEntries(result.items.map((item) => [item.name, item]));
    expect(byName['my server']?.error).toBe('name: Server name can only contain letters, numbers, hyphens, and underscores');
    expect(byName.fetch?.error).toBe("name: Duplicate MCP server name 'fetch'");
    expect(byName.spaced?.error).toBe('command: Command should be a single executable without spaces (use arguments field for parameters)');
    expect(byName.remote?.error).toBe('url: Duplicate MCP server URLs are not allowed');
    expect(byName.odd?.error).toBe('Unsupported type "grpc"');
    expect(byName.nothing?.error).toBe('Expected "command" (a local server) or "url" (a remote one)');
    expect(byName.keyed).toMatchObject({
      entry: { kind: 'shttp', api_key: null },
      warnings: [expect.anything(), expect.stringContaining('X-Api-Key')],
    });
    expect(byName.ok?.error).toMatch(/^env: Invalid environment variable name '1BAD'/);
    expect(byName.good?.entry).toEqual({ kind: 'stdio', name: 'good', command: 'uvx', args: ['mcp-good'], env: {} });
  });

  it('refuses text that is not JSON or not in the format', () => {
    expect(parseMcpServersJson('{"mcpServers": ', null, i18n)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Not valid JSON/),
    });
    expect(parseMcpServersJson('[1]', null, i18n)).toEqual({
      ok: false,
      error: 'Expected an object with "mcpServers": { "<name>": { … } }',
    });
  });

  it('reports a name used twice in the same paste', () => {
    const result = parseMcpServersJson(
      '{"mcpServers": {"a": {"url": "https://same.example/mcp"}, "b": {"url": "https://same.example/mcp"}}}',
      null,
      i18n,
    );
    expect(result.ok && result.items.map((item) => item.error)).toEqual([undefined, 'url: Duplicate MCP server URLs are not allowed']);
  });
});

describe('toMcpServersJson', () => {
  it('exports without API keys, in a form that imports back to the same servers', () => {
    const config: McpConfigResponse = {
      stdio_servers: [{ name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], env: { A: '1' } }],
      sse_servers: [{ url: 'https://a.example/sse', api_key: null, api_key_set: true }],
      shttp_servers: [{ url: 'https://b.example/mcp', api_key: 'plain', timeout: 45 }],
    };
    const text = toMcpServersJson(config);
    expect(JSON.parse(text)).toEqual({
      mcpServers: {
        fetch: { command: 'uvx', args: ['mcp-server-fetch'], env: { A: '1' } },
        'a-example-sse': { type: 'sse', url: 'https://a.example/sse' },
        'b-example-mcp': { type: 'http', url: 'https://b.example/mcp', timeout: 45 },
      },
    });
    expect(text).not.toContain('plain');
    const back = parseMcpServersJson(text, null, i18n);
    expect(back.ok && back.items.map((item) => item.entry)).toEqual([
      { kind: 'stdio', name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], env: { A: '1' } },
      { kind: 'sse', url: 'https://a.example/sse', api_key: null },
      { kind: 'shttp', url: 'https://b.example/mcp', api_key: null, timeout: 45 },
    ]);
  });
});
