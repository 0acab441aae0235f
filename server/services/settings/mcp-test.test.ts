import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it, vi } from 'vitest';
import { type HttpMcpServer, startHttpMcpServer } from '../../../test-support/mcp/http-server';
import { markedProcesses } from '../../processes/proc';
import { THROWAWAY_MARKER } from '../../sandboxes/process-throwaway';
import { startTestApp, type TestApp } from '../../testing/test-app';
import { closedPort } from '../../testing/closed-port';
import { STDIO_MCP_SERVER } from '../../testing/stdio-mcp-server';

const {
  command: NODE,
  args: [STDIO_SERVER],
} = STDIO_MCP_SERVER;

let t: TestApp;
let http: HttpMcpServer;
beforeAll(async () => {
  http = await startHttpMcpServer({ token: 'right-token' });
});
afterAll(async () => {
  await http.close();
});
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => {
  await t.close();
});

const test = async (body: unknown, query = '') => {
  const response = await t.request({
    method: 'POST',
    url: `/api/mcp/test${query}`,
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  return { status: response.statusCode, body: response.json() };
};

const commandLine = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return ''; // gone meanwhile
  }
};

/**
 * Live processes whose command line matches `pattern`, among those marked as this test's (by
 * default, started for the test app's data dir): another checkout's tests on the machine can't
 * make a test here fail.
 */
const testProcesses = (pattern: RegExp, marker = t.dataDir) =>
  markedProcesses(THROWAWAY_MARKER, marker).filter((p) => pattern.test(commandLine(p.pid)));

describe('POST /api/mcp/test', () => {
  it('lists the tools of a real stdio MCP server, and leaves no process behind', async () => {
    const { status, body } = await test({ kind: 'stdio', name: 'tools', command: NODE, args: [STDIO_SERVER] });
    expect(status).toBe(200);
    expect(body).toEqual({
      ok: true,
      tools: [
        { name: 'echo', description: 'Echoes what it is given' },
        { name: 'clock', description: 'Tells the time' },
      ],
    });
    expect(testProcesses(/stdio-server/)).toEqual([]);
  });

  it('passes the entry’s env to the process', async () => {
    const script = 'if [ "$GREETING" = hello ]; then exec "$0" "$1"; else echo "GREETING=$GREETING" >&2; exit 3; fi';
    const good = await test({
      kind: 'stdio',
      name: 'env',
      command: 'sh',
      args: ['-c', script, NODE, STDIO_SERVER],
      env: { GREETING: 'hello' },
    });
    expect(good.body.ok).toBe(true);
    const bad = await test({
      kind: 'stdio',
      name: 'env',
      command: 'sh',
      args: ['-c', script, NODE, STDIO_SERVER],
      env: { GREETING: 'bye' },
    });
    expect(bad.body).toEqual({ ok: false, error: 'process exited with code 3: GREETING=bye' });
  });

  it('masks the values of its environment in what a failed server said, as the agent masks them', async () => {
    const { body } = await test({
      kind: 'stdio',
      name: 'echo',
      command: 'sh',
      args: ['-c', 'echo "region $REGION" >&2; exit 3'],
      env: { REGION: 'eu-north-7-region-value' },
    });
    expect(body).toEqual({ ok: false, error: 'process exited with code 3: region <secret:REGION>' });
  });

  it('names a command that does not exist', async () => {
    const { status, body } = await test({ kind: 'stdio', name: 'missing', command: 'no-such-mcp-command' });
    expect(status).toBe(200);
    expect(body).toEqual({ ok: false, error: 'no-such-mcp-command: command not found' });
  });

  it('stops at the time limit and kills the whole process group', async () => {
    const { body } = await test({ kind: 'stdio', name: 'silent', command: 'sh', args: ['-c', 'sleep 987 & sleep 986'] }, '?timeout=2');
    expect(body).toEqual({ ok: false, error: 'timeout after 2 s' });
    expect(testProcesses(/sleep 98[67]/)).toEqual([]);
  });

  it('uses the API key stored for the same URL when the entry keeps it (api_key null)', async () => {
    await t.postSettings({ mcp_config: { shttp_servers: [{ url: http.url, api_key: 'right-token' }] } });
    const { body } = await test({ kind: 'shttp', url: http.url, api_key: null });
    expect(body.ok).toBe(true);
    expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual(['echo', 'clock']);
    expect(http.authorizations.at(-1)).toBe('Bearer right-token');
  });

  it('talks SSE too, with the key as a bearer token on every request', async () => {
    const before = http.authorizations.length;
    const { body } = await test({ kind: 'sse', url: http.sseUrl, api_key: 'right-token' });
    expect(body).toMatchObject({ ok: true, tools: [{ name: 'echo' }, { name: 'clock' }] });
    const sent = http.authorizations.slice(before);
    expect(sent.length).toBeGreaterThanOrEqual(2); // the event stream and the posted messages
    expect(new Set(sent)).toEqual(new Set(['Bearer right-token']));
  });

  it('connects anew for each test: a connection an earlier test left open proves nothing, and may be closed meanwhile', async () => {
    const start = http.connections.length;
    expect((await test({ kind: 'shttp', url: http.url, api_key: 'right-token' })).body.ok).toBe(true);
    const middle = http.connections.length;
    expect((await test({ kind: 'shttp', url: http.url, api_key: 'right-token' })).body.ok).toBe(true);
    const first = new Set(http.connections.slice(start, middle));
    const second = http.connections.slice(middle);
    expect(second.length).toBeGreaterThan(0);
    expect(second.filter((connection) => first.has(connection))).toEqual([]);
  });

  it('reports the HTTP status a server refuses with', async () => {
    const { body } = await test({ kind: 'shttp', url: http.url, api_key: 'wrong-token' });
    expect(body.ok).toBe(false);
    expect(body.error).toMatch(/^HTTP 401/);
  });

  it('says what an internal service answered with its status only, never what it sent', async () => {
    const internal = createServer((_request, response) =>
      response.writeHead(404, { 'content-type': 'text/plain' }).end('internal only: the password is swordfish'),
    );
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(internal.address() as AddressInfo).port}/mcp`;
      const { body } = await test({ kind: 'shttp', url });
      expect(body).toEqual({ ok: false, error: 'HTTP 404: no MCP endpoint at this URL' });
    } finally {
      await new Promise((resolve) => internal.close(resolve));
    }
  });

  it.each(['shttp', 'sse'] as const)('reports a refused connection (%s)', async (kind) => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const { status, body } = await test({ kind, url });
    expect(status).toBe(200);
    expect(body).toEqual({ ok: false, error: `Connection refused at ${new URL(url).host} (ECONNREFUSED)` });
  });

  it('tells how a failed server ended with the last five lines it wrote to stderr, one per line', async () => {
    const script = 'for n in 1 2 3 4 5 6 7; do echo "line $n" >&2; done; echo >&2; exit 3';
    const { body } = await test({ kind: 'stdio', name: 'chatty', command: 'sh', args: ['-c', script] });
    expect(body).toEqual({ ok: false, error: 'process exited with code 3: line 3\nline 4\nline 5\nline 6\nline 7' });
  });

  it('says a command that exits cleanly before responding may not be an MCP server', async () => {
    const { body } = await test({ kind: 'stdio', name: 'not-mcp', command: 'sh', args: ['-c', 'echo "usage: tool [options]" >&2'] });
    expect(body).toEqual({
      ok: false,
      error: 'process exited with code 0 before responding — is this an MCP server? It wrote: usage: tool [options]',
    });
  });

  it.each([
    ['a bad stdio name', { kind: 'stdio', name: 'bad name', command: 'x' }, ['body', 'name']],
    ['an SHTTP timeout of 0', { kind: 'shttp', url: 'http://x.example/mcp', timeout: 0 }, ['body', 'timeout']],
    ['a URL without scheme', { kind: 'sse', url: 'example.com' }, ['body', 'url']],
    ['an unknown kind', { kind: 'grpc', url: 'http://x.example' }, ['body', 'kind']],
  ])('responds with 422 for %s', async (_name, entry, loc) => {
    const { status, body } = await test(entry);
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(loc);
  });

  it('says which kinds there are when the kind is unknown', async () => {
    const { body } = await test({ kind: 'grpc' });
    expect(body.detail).toEqual([
      {
        type: 'union_tag_invalid',
        loc: ['body', 'kind'],
        msg: "Input should be 'stdio', 'sse' or 'shttp'",
        input: 'grpc',
        ctx: { discriminator: "'kind'", expected: "'stdio', 'sse' or 'shttp'" },
      },
    ]);
  });

  it('runs at most four tests at once, and the server stopping ends those still running', async () => {
    const hang = (n: number) => ({ kind: 'stdio', name: `hang${n}`, command: 'sh', args: ['-c', `sleep 97${n}`] });
    const running = [0, 1, 2, 3].map((n) => test(hang(n), '?timeout=60'));
    await vi.waitFor(
      () => expect([0, 1, 2, 3].map((n) => testProcesses(new RegExp(`sleep 97${n}`)).length > 0)).toEqual([true, true, true, true]),
      {
        timeout: 5000,
      },
    );
    expect((await test(hang(4), '?timeout=60')).body).toEqual({
      ok: false,
      error: '4 connection tests are already running; try again in a moment',
    });

    await t.app.close(); // as on SIGTERM or Ctrl-C
    for (const result of await Promise.all(running))
      expect(result.body).toEqual({ ok: false, error: 'cancelled: the server is shutting down' });
    expect(testProcesses(/sleep 97[0-4]/)).toEqual([]);
  });

  it('marks the processes it starts with its data dir', async () => {
    const script = 'echo "marker=$AGENT_CONSOLE_THROWAWAY" >&2; exit 3';
    const { body } = await test({ kind: 'stdio', name: 'marked', command: 'sh', args: ['-c', script] });
    expect(body.ok).toBe(false);
    expect(body.error).toContain(`marker=${t.dataDir}`);
  });

  it('ends what a killed server on the same data dir left running, and nothing else', async () => {
    const orphan = (marker: string, script: string) =>
      spawn('sh', ['-c', script], { detached: true, stdio: 'ignore', env: { ...process.env, AGENT_CONSOLE_THROWAWAY: marker } });
    const left = orphan(t.dataDir, 'sleep 961 & exec sleep 962');
    const otherDataDir = `${t.dataDir}-another-server`;
    const other = orphan(otherDataDir, 'exec sleep 963');
    try {
      await vi.waitFor(
        () => expect([testProcesses(/sleep 96[12]/).length, testProcesses(/sleep 963/, otherDataDir).length]).toEqual([2, 1]),
        { timeout: 5000 },
      );
      expect(await t.services.mcpTest.endLeftovers()).toBe(1);
      await expect.poll(() => testProcesses(/sleep 96[12]/), { timeout: 5000 }).toEqual([]);
      expect(testProcesses(/sleep 963/, otherDataDir)).toHaveLength(1);
    } finally {
      for (const child of [left, other]) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  });

  it.each(['0', '61', '2.5', 'soon'])('responds with 422 for ?timeout=%s', async (timeout) => {
    const { status, body } = await test({ kind: 'stdio', name: 'x', command: 'true' }, `?timeout=${timeout}`);
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(['query', 'timeout']);
  });

  it('needs the session key', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/mcp/test', payload: { kind: 'stdio', name: 'x', command: 'true' } });
    expect(response.statusCode).toBe(401);
  });
});
