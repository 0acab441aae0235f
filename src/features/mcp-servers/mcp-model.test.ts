import { i18n } from '@lingui/core';
import { NUL_PROBLEM } from '../../contract/rules';
import { describe, expect, it } from 'vitest';
import type { McpConfigResponse } from '../../contract/mcp';
import {
  describeLoc,
  dropsStoredKey,
  EMPTY_MCP_CONFIG,
  entryFor,
  errorsAt,
  formFieldFor,
  formValuesFor,
  serverRows,
  withoutServer,
  withServer,
  withServers,
} from './mcp-model';
import { splitCommandLine } from '../../components/command-line';

const config: McpConfigResponse = {
  stdio_servers: [
    { name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], env: {} },
    { name: 'git', command: 'uvx', args: ['mcp-server-git', '--repository', '.'], env: { GIT_AUTHOR: 'ada' } },
  ],
  sse_servers: [{ url: 'https://a.example/sse', api_key: null, api_key_set: true }],
  shttp_servers: [{ url: 'https://b.example/mcp', api_key: null, api_key_set: false, timeout: 30 }],
};

describe('serverRows', () => {
  it('lists every server with a stable id, a label and details', () => {
    expect(serverRows(config).map(({ id, label, details, timeout, keySet }) => ({ id, label, details, timeout, keySet }))).toEqual([
      { id: 'stdio:fetch', label: 'fetch', details: 'uvx mcp-server-fetch', timeout: undefined, keySet: undefined },
      { id: 'stdio:git', label: 'git', details: 'uvx mcp-server-git --repository .', timeout: undefined, keySet: undefined },
      { id: 'sse:https://a.example/sse', label: 'https://a.example/sse', details: '', timeout: undefined, keySet: true },
      { id: 'shttp:https://b.example/mcp', label: 'https://b.example/mcp', details: '', timeout: 30, keySet: false },
    ]);
  });

  it('quotes arguments with spaces or quotes, so the command line reads as it runs', () => {
    const notes = { name: 'notes', command: 'npx', args: ['-y', 'server-files', '/home/ada/My Notes', "it's"], env: {} };
    const [row] = serverRows({ ...EMPTY_MCP_CONFIG, stdio_servers: [notes] });
    expect(row!.details).toBe(`npx -y server-files '/home/ada/My Notes' 'it'"'"'s'`);
    expect(splitCommandLine(row!.details)).toEqual({ ok: true, args: ['npx', ...notes.args] });
  });

  it('keeps ids unique even for duplicates another server let through', () => {
    const dup = { ...config, stdio_servers: [config.stdio_servers[0]!, config.stdio_servers[0]!] };
    expect(
      serverRows(dup)
        .slice(0, 2)
        .map((row) => row.id),
    ).toEqual(['stdio:fetch', 'stdio:fetch#2']);
  });

  it('reads a key sent in plain text (real OpenHands) as set', () => {
    const plain = { ...config, sse_servers: [{ url: 'https://a.example/sse', api_key: 'k' }] };
    expect(serverRows(plain)[2]?.keySet).toBe(true);
  });
});

describe('withServer', () => {
  it('replaces a server in place, found by id even after the list changed', () => {
    const fresh = { ...config, stdio_servers: [{ name: 'new', command: 'x', args: [], env: {} }, ...config.stdio_servers] };
    const { config: next, position } = withServer(fresh, 'stdio:git', {
      kind: 'stdio',
      name: 'git',
      command: 'git-mcp',
      args: [],
      env: {},
    });
    expect(next.stdio_servers.map((s) => s.command)).toEqual(['x', 'uvx', 'git-mcp']);
    expect(position).toEqual({ kind: 'stdio', index: 2 });
  });

  it('moves a server that changed kind to the end of its new list', () => {
    const { config: next, position } = withServer(config, 'sse:https://a.example/sse', {
      kind: 'shttp',
      url: 'https://a.example/sse',
      api_key: null,
    });
    expect(next.sse_servers).toEqual([]);
    expect(next.shttp_servers.map((s) => s.url)).toEqual(['https://b.example/mcp', 'https://a.example/sse']);
    expect(position).toEqual({ kind: 'shttp', index: 1 });
  });

  it('adds a new server, or one removed meanwhile, at the end', () => {
    expect(withServer(config, null, { kind: 'sse', url: 'https://c.example/sse' }).position).toEqual({ kind: 'sse', index: 1 });
    expect(withServer(config, 'stdio:gone', { kind: 'stdio', name: 'gone', command: 'x' }).position).toEqual({ kind: 'stdio', index: 2 });
  });

  it('removes and adds several', () => {
    expect(withoutServer(config, 'stdio:fetch').stdio_servers.map((s) => s.name)).toEqual(['git']);
    const { positions } = withServers(config, [
      { kind: 'stdio', name: 'a', command: 'x' },
      { kind: 'sse', url: 'https://d.example/sse' },
      { kind: 'stdio', name: 'b', command: 'y' },
    ]);
    expect(positions).toEqual([
      { kind: 'stdio', index: 2 },
      { kind: 'sse', index: 1 },
      { kind: 'stdio', index: 3 },
    ]);
  });
});

describe('form values', () => {
  const rows = serverRows(config);

  it('round-trip a stdio server', () => {
    const values = formValuesFor(rows[1]!);
    expect(values).toMatchObject({
      kind: 'stdio',
      name: 'git',
      args: [{ value: 'mcp-server-git' }, { value: '--repository' }, { value: '.' }],
      env: [{ key: 'GIT_AUTHOR', value: 'ada' }],
    });
    expect(entryFor(values, rows[1]!)).toEqual({
      kind: 'stdio',
      name: 'git',
      command: 'uvx',
      args: ['mcp-server-git', '--repository', '.'],
      env: { GIT_AUTHOR: 'ada' },
    });
  });

  it('keep a stored key as null, or as the plain key a real OpenHands server sent', () => {
    expect(entryFor(formValuesFor(rows[2]!), rows[2]!)).toEqual({ kind: 'sse', url: 'https://a.example/sse', api_key: null });
    const plain = serverRows({ ...config, sse_servers: [{ url: 'https://a.example/sse', api_key: 'from-openhands' }] })[2]!;
    expect(entryFor(formValuesFor(plain), plain)).toMatchObject({ api_key: 'from-openhands' });
  });

  it('say when a change of URL or kind drops the stored key', () => {
    const values = formValuesFor(rows[2]!);
    expect(dropsStoredKey(values, rows[2]!)).toBe(false);
    expect(dropsStoredKey({ ...values, url: 'https://other.example/sse' }, rows[2]!)).toBe(true);
    expect(dropsStoredKey({ ...values, kind: 'shttp' }, rows[2]!)).toBe(true);
    expect(dropsStoredKey({ ...values, kind: 'shttp', api_key: { value: 'new', clear: false } }, rows[2]!)).toBe(false);
    // and a changed URL does not carry a plain key over either
    const plain = serverRows({ ...config, sse_servers: [{ url: 'https://a.example/sse', api_key: 'from-openhands' }] })[2]!;
    expect(entryFor({ ...formValuesFor(plain), url: 'https://other.example/sse' }, plain)).toMatchObject({ api_key: null });
  });

  it('leave an empty timeout out so the default applies', () => {
    expect(entryFor({ ...formValuesFor(rows[3]!), timeout: '' }, rows[3]!)).toEqual({
      kind: 'shttp',
      url: 'https://b.example/mcp',
      api_key: null,
    });
    expect(entryFor(formValuesFor(rows[3]!), rows[3]!)).toMatchObject({ timeout: 30 });
  });
});

describe('placing a 422', () => {
  const detail = [
    { type: 'value_error', loc: ['body', 'mcp_config', 'stdio_servers', 2, 'args', 1], msg: 'Value error, bad arg' },
    {
      type: 'value_error',
      loc: ['body', 'mcp_config', 'stdio_servers', 2, 'env'],
      msg: "Value error, Invalid environment variable name 'B-AD'. Must…",
    },
    { type: 'value_error', loc: ['body', 'mcp_config', 'stdio_servers', 0, 'name'], msg: 'Value error, other server' },
    { type: 'extra_forbidden', loc: ['body', 'mcp_config', 'foo'], msg: 'Extra inputs are not permitted' },
  ];

  it('separates the errors of the saved server from the others', () => {
    const { own, others } = errorsAt(detail, { kind: 'stdio', index: 2 });
    expect(own).toEqual([
      { path: 'args.1', message: 'bad arg' },
      { path: 'env', message: "Invalid environment variable name 'B-AD'. Must…" },
    ]);
    expect(others.map((entry) => entry.loc.at(-1))).toEqual(['name', 'foo']);
  });

  it('puts an argument error on the row at that index (rows are locked while saving)', () => {
    expect(formFieldFor('args.1', 'bad arg', [], i18n)).toBe('args.1.value');
    expect(formFieldFor('args', 'Input should be a valid list', [], i18n)).toBe('args.root');
  });

  it('finds the env row by key, from the loc or the message', () => {
    expect(formFieldFor('env.B', 'x', ['A', 'B'], i18n)).toBe('env.1.key');
    expect(formFieldFor('env', "Invalid environment variable name 'B-AD'.", ['OK', 'B-AD'], i18n)).toBe('env.1.key');
    expect(formFieldFor('env', 'Input should be a valid dictionary', ['A'], i18n)).toBe('env.root');
  });

  it("puts a value no process can hold at that row's value", () => {
    expect(formFieldFor('env.B', `B: ${i18n._(NUL_PROBLEM)}`, ['A', 'B'], i18n)).toBe('env.1.value');
  });

  it('keeps other fields as they are, and the entry itself as a form error', () => {
    expect(formFieldFor('url', 'x', [], i18n)).toBe('url');
    expect(formFieldFor('', 'x', [], i18n)).toBe('root.server');
  });
});

describe('describeLoc', () => {
  it('names the server a loc points at in the config that was sent', () => {
    expect(describeLoc(['body', 'mcp_config', 'stdio_servers', 1, 'name'], config, i18n)).toBe('stdio server “git” › name');
    expect(describeLoc(['body', 'mcp_config', 'shttp_servers', 0, 'timeout'], config, i18n)).toBe(
      'Streamable HTTP server “https://b.example/mcp” › timeout',
    );
    expect(describeLoc(['body', 'mcp_config', 'sse_servers', 5, 'url'], config, i18n)).toBe('SSE server 6 › url');
    expect(describeLoc(['body', 'mcp_config', 'foo'], config, i18n)).toBe('mcp_config.foo');
    expect(describeLoc(['body', 'language'], null, i18n)).toBe('language');
  });
});
