import { sessionKeyCaller } from '../authz/caller';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { canSwitchUsers } from '../processes/process-user';
import { markedProcesses } from '../processes/proc';
import { logLines, sandboxInfo, shellSpec, startSandbox, statusBecomes } from '../testing/sandbox-helpers';
import { homeOf } from '../testing/sandbox-processes';
import { startTestApp, type TestApp } from '../testing/test-app';
import { HOST_ALIAS } from './host-alias';
import { findNamespaceTools, type NamespaceTools, serverDirs } from './namespaces';
import { SANDBOX_MARKER } from './process-runtime';
import { THROWAWAY_MARKER } from './process-throwaway';
import { AGENT_SERVER_SCRIPT, loadSandboxSpecs } from './specs';
import { publishedUrl } from '../testing/published-url';
import { closedPort, listensOn } from '../testing/closed-port';
import { localEngine } from '../testing/docker-engine';
import { STDIO_MCP_SERVER } from '../testing/stdio-mcp-server';
import { ensureSandboxNetwork } from './docker/sandbox-network';

/*
 * Process sandboxes in namespaces of their own (bubblewrap, slirp4netns): what sandbox code can no
 * longer reach — the host's ports and processes, another sandbox's files and /tmp, DATA_DIR,
 * privileges through set-id binaries — and what it still can: its home, the internet, the host
 * at HOST_ALIAS. CI installs the tools and must run these; elsewhere one line says they were not.
 */

const found = findNamespaceTools(canSwitchUsers() ? { uid: 65534, gid: 65534 } : undefined);
if (!found.tools && process.env.CI) throw new Error(`CI must run the namespaced sandbox tests: ${found.reason}`);
if (found.tools && !found.tools.firewall && process.env.CI) throw new Error(`CI must limit sandboxes' networks: ${found.unlimitedNetwork}`);
if (!found.tools) console.warn(`[namespaced sandboxes] not tested here: ${found.reason}`);
const tools = found.tools as NamespaceTools;

const apps: TestApp[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
});

/** An HTTP server on the host's loopback (an LLM, a git server), saying who it is. */
let hostServer: http.Server;
let hostPort: number;
beforeAll(async () => {
  hostServer = http.createServer((_request, response) => response.end('the host answers'));
  await new Promise<void>((resolve) => hostServer.listen(0, '127.0.0.1', resolve));
  hostPort = (hostServer.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => hostServer.close(() => resolve())));

async function logOf(t: TestApp, id: string): Promise<string> {
  return vi.waitFor(
    async () => {
      const lines = await logLines(t, id);
      expect(lines, lines.join('\n')).toContain('probed');
      return lines.join('\n');
    },
    { timeout: 15_000 },
  );
}

/** Whether an IPv4 address is in a private range (RFC 1918). */
const isPrivate = (address: string) => /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(address);

/** Node's fetch from inside the sandbox: prints the body, or FETCH-FAILED. */
const fetchFrom = (url: string) =>
  `node -e 'fetch(process.argv[1]).then(r=>r.text()).then(t=>console.log(t),()=>console.log("FETCH-FAILED"))' ${url}`;

/**
 * Runs `probe` while the host answers on every address: the URLs a sandbox tries (the host at its
 * alias first, then each of the host's private addresses and cloud metadata), those addresses, and
 * the port.
 */
async function withHostListener(probe: (where: { tries: string[]; privateAddresses: Set<string>; port: number }) => Promise<void>) {
  const engine = await localEngine();
  // The sandboxes' Docker network gives the host an address in a private range; a LAN may too.
  const privateAddresses = new Set([
    ...(engine ? [(await ensureSandboxNetwork(engine)).gateway] : []),
    ...Object.values(os.networkInterfaces())
      .flat()
      .filter((address) => address?.family === 'IPv4' && !address.internal && isPrivate(address.address))
      .map((address) => address!.address),
  ]);
  if (privateAddresses.size === 0 && process.env.CI) throw new Error('CI must have a private address to try: a Docker engine');
  const everywhere = http.createServer((_request, response) => response.end('the host answers'));
  await new Promise<void>((resolve) => everywhere.listen(0, '0.0.0.0', resolve));
  try {
    const port = (everywhere.address() as AddressInfo).port;
    const tries = [
      `http://${HOST_ALIAS}:${port}/`,
      ...[...privateAddresses].map((address) => `http://${address}:${port}/`),
      'http://169.254.169.254/',
    ];
    await probe({ tries, privateAddresses, port });
  } finally {
    everywhere.closeAllConnections();
    await new Promise((resolve) => everywhere.close(resolve));
  }
}

describe.skipIf(!found.tools)('process sandboxes in namespaces of their own', () => {
  /** An app whose spec `probe` runs `script`, with the server's pid in $SERVER_PID and its data dir in $D. */
  async function app(script: string) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-test-'));
    const probe = { ...shellSpec('probe', script), initial_env: { SERVER_PID: String(process.pid), D: dataDir } };
    const t = await startTestApp({ dataDir, sandboxNamespaces: tools, sandboxSpecs: [...loadSandboxSpecs(undefined), probe] });
    apps.push(t);
    return t;
  }

  it('see only their own processes and files, write only their home, and gain nothing from set-id bits', async () => {
    const port = await closedPort();
    const t = await app(
      [
        'echo "processes=$(ls /proc | grep -c "^[0-9]")"',
        'kill -0 "$SERVER_PID" 2>/dev/null && echo SIGNALLED-SERVER',
        // The host's /tmp is full of other tests' files; the sandbox's holds only the ways to DATA_DIR and to this project.
        'echo "tmp-entries: $(ls -A /tmp | tr "\\n" " ")"',
        // The host's services listen in /run (the Docker engine's socket among them).
        'echo "run-entries: $(find /run/ /var/run/ -mindepth 1 | tr "\\n" " ")"',
        'touch /tmp/mine "$HOME/mine" && echo WROTE-OWN-FILES',
        'touch /etc/written 2>/dev/null && echo WROTE-HOST-FILES',
        'grep -E "^(NoNewPrivs|CapEff)" /proc/self/status',
        // Listens on "its" loopback: the host's port stays free.
        `node -e 'require("net").createServer().listen(${port}, "127.0.0.1", () => console.log("LISTENING"))' &`,
        'sleep 1',
        'echo probed',
        'wait',
      ].join('\n'),
    );
    const first = await startSandbox(t, 'probe');
    const log = await logOf(t, first.id);
    expect(log).toContain('WROTE-OWN-FILES');
    expect(log).toContain('LISTENING');
    expect(log).toMatch(/NoNewPrivs:\s+1/);
    expect(log).toMatch(/CapEff:\s+0+$/m);
    // bwrap as the namespace's init, the shell, node, sleep or ls: a handful, none of the host's.
    expect(Number(/processes=(\d+)/.exec(log)?.[1])).toBeLessThan(8);
    // Only the way to what it is shown of the host (this project, when installed there) and to its home.
    const underTmp = [t.dataDir, ...serverDirs()].filter((dir) => dir.startsWith('/tmp/')).map((dir) => dir.split('/')[2]);
    const entries = /tmp-entries: (.*)$/m.exec(log)![1]!.trim().split(' ').filter(Boolean);
    for (const entry of entries) expect(underTmp).toContain(entry);
    expect(fs.readdirSync('/run').length).toBeGreaterThan(0);
    expect(log).toMatch(/^run-entries: *$/m);
    expect(fs.readdirSync(os.tmpdir()).length).toBeGreaterThan(1);
    for (const word of ['SIGNALLED-SERVER', 'WROTE-HOST-FILES']) expect(log).not.toContain(word);
    expect(await listensOn('127.0.0.1', port)).toBe(false);
    expect(fs.existsSync(path.join(homeOf(t, first.id), 'mine'))).toBe(true);
  });

  it('do not see DATA_DIR: not the database, the keys, nor other sandboxes', async () => {
    const t = await app('echo "data-dir: $(ls -A "$D")"; echo "sandboxes: $(ls -A "$D/sandboxes")"; echo probed; sleep 600');
    const first = await startSandbox(t, 'probe');
    const second = await startSandbox(t, 'probe');
    expect(fs.readdirSync(t.dataDir).length).toBeGreaterThan(3);
    // Only the way to its own home, in an empty directory standing for DATA_DIR.
    for (const { id } of [first, second]) {
      const log = await logOf(t, id);
      expect(log).toContain('data-dir: sandboxes\n');
      expect(log).toContain(`sandboxes: ${id}\n`);
    }
  });

  it('reach the host at its alias, but none of its private addresses: not the Docker network, the LAN or cloud metadata', async () => {
    await withHostListener(async ({ tries, privateAddresses, port }) => {
      const t = await app(`${tries.map((url) => `echo "$(${fetchFrom(url)}) from ${url}"`).join('; ')}; echo probed; sleep 600`);
      const { id } = await startSandbox(t, 'probe');
      const log = await logOf(t, id);
      expect(log).toContain(`the host answers from ${tries[0]}`);
      for (const url of tries.slice(1)) expect(log).toContain(`FETCH-FAILED from ${url}`);
      // The host reaches its own private addresses: only the sandbox is refused.
      for (const address of privateAddresses) expect(await (await fetch(`http://${address}:${port}/`)).text()).toBe('the host answers');
    });
  });

  it('reach the host at its alias, and are reached at their forwarded port; pause, resume and delete take their network along', async () => {
    const t = await app(
      `${fetchFrom(`http://${HOST_ALIAS}:${hostPort}/`)}; ${fetchFrom(`http://127.0.0.1:${hostPort}/`)}; echo probed; sleep 600`,
    );
    const { id } = await startSandbox(t, 'probe');
    const log = await logOf(t, id);
    // The host at its alias; its own loopback is its own.
    expect(log.split('\n').filter((line) => line === 'the host answers')).toHaveLength(1);
    expect(log).toContain('FETCH-FAILED');

    // The agent server: on its forwarded port, and so RUNNING.
    const agent = await startSandbox(t, 'agent-server');
    const running = await statusBecomes(t, agent.id, 'RUNNING');
    const url = running.exposed_urls![0]!.url;
    expect(url).toMatch(publishedUrl);
    // Not on the host's 127.0.0.1, and so not on `localhost`, where the console's cookie goes.
    expect(await listensOn('127.0.0.1', Number(new URL(url).port))).toBe(false);
    expect(await (await fetch(`${url}/alive`)).json()).toEqual({ status: 'ok' });

    const helpers = () => markedProcesses(SANDBOX_MARKER, agent.id).filter((p) => p.pid === p.pgrp).length;
    expect(helpers()).toBe(2); // its own group, and its network helper's
    expect((await t.request({ method: 'POST', url: `/api/v1/sandboxes/${agent.id}/pause` })).statusCode).toBe(200);
    expect((await sandboxInfo(t, agent.id))?.status).toBe('PAUSED');
    expect((await t.request({ method: 'POST', url: `/api/v1/sandboxes/${agent.id}/resume` })).statusCode).toBe(200);
    await statusBecomes(t, agent.id, 'RUNNING');
    expect((await t.request({ method: 'DELETE', url: `/api/v1/sandboxes/${agent.id}` })).statusCode).toBe(200);
    expect(markedProcesses(SANDBOX_MARKER, agent.id)).toEqual([]);
  });

  it('have their apps (WORKER_1, WORKER_2) reached at their exposed URLs, and nowhere else', async () => {
    const app = `require("http").createServer((q, r) => r.end("app preview")).listen(process.env.WORKER_1, "0.0.0.0")`;
    const spec = shellSpec('with-app', `${process.execPath} -e '${app}' & exec ${process.execPath} ${AGENT_SERVER_SCRIPT}`);
    const t = await startTestApp({ sandboxNamespaces: tools, sandboxSpecs: [...loadSandboxSpecs(undefined), spec] });
    apps.push(t);
    const { id } = await startSandbox(t, 'with-app');
    const running = await statusBecomes(t, id, 'RUNNING');
    const urls = Object.fromEntries(running.exposed_urls!.map(({ name, url }) => [name, url]));
    expect(Object.keys(urls)).toEqual(['AGENT_SERVER', 'WORKER_1', 'WORKER_2']);
    for (const url of Object.values(urls)) expect(url).toMatch(publishedUrl);
    await expect
      .poll(
        () =>
          fetch(urls.WORKER_1!).then(
            (r) => r.text(),
            () => '',
          ),
        { timeout: 10_000 },
      )
      .toBe('app preview');
    // Not on `localhost`, where the console's cookie goes.
    expect(await listensOn('127.0.0.1', Number(new URL(urls.WORKER_1!).port))).toBe(false);
  });

  it('run commands (git, setup scripts) in their namespaces: the same home and network', async () => {
    const t = await app('echo probed; sleep 600');
    const { id } = await startSandbox(t, 'probe');
    await logOf(t, id);
    const result = await t.services.sandboxes.exec(
      sessionKeyCaller,
      id,
      ['sh', '-c', `touch made-by-exec; ${fetchFrom(`http://${HOST_ALIAS}:${hostPort}/`)}; id -u`],
      {
        timeoutMs: 10_000,
      },
    );
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain('the host answers');
    expect(result.output.trim().split('\n').at(-1)).toBe(String(canSwitchUsers() ? fs.statSync(homeOf(t, id)).uid : process.getuid?.()));
    expect(fs.existsSync(path.join(homeOf(t, id), 'made-by-exec'))).toBe(true);
  });

  it('end with their main process, network helper and all', async () => {
    const t = await app('sleep 964 & echo probed; sleep 1; exit 3');
    const { id } = await startSandbox(t, 'probe');
    const failed = await statusBecomes(t, id, 'ERROR', 10_000);
    // Its own last words, nothing of its network helper's.
    expect(failed.status_detail).toBe('The process exited with code 3: probed');
    await vi.waitFor(() => expect(markedProcesses(SANDBOX_MARKER, id)).toEqual([]), { timeout: 5000 });
  });
});

describe.skipIf(!found.tools)('MCP stdio servers under test in namespaces of their own', () => {
  const mcpTest = async (t: TestApp, body: unknown) =>
    (
      await t.request({
        method: 'POST',
        url: '/api/mcp/test?timeout=10',
        payload: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      })
    ).json();

  it('work as before, and end with the test: forks that left the group, and the files they wrote', async () => {
    const t = await startTestApp({ sandboxNamespaces: tools });
    apps.push(t);
    expect(await mcpTest(t, { kind: 'stdio', name: 'tools', ...STDIO_MCP_SERVER })).toMatchObject({
      ok: true,
      tools: [{ name: 'echo' }, { name: 'clock' }],
    });

    const script =
      'setsid sleep 977 < /dev/null > /dev/null 2>&1 & echo "$TOKEN" > "$HOME/token"; echo left > /tmp/left; echo "home $HOME" >&2; exit 3';
    const result = await mcpTest(t, { kind: 'stdio', name: 'fork', command: 'sh', args: ['-c', script], env: { TOKEN: 'tok-1' } });
    expect(result.error).toMatch(/^process exited with code 3: home .*throwaway-homes\/[0-9a-f]{16}$/);
    const home = /home (\S+)$/.exec(result.error)![1]!;
    await vi.waitFor(() => expect(markedProcesses(THROWAWAY_MARKER, t.dataDir)).toEqual([]), { timeout: 5000 });
    expect(fs.existsSync(home)).toBe(false);
    expect(fs.existsSync('/tmp/left')).toBe(false);
    expect(await mcpTest(t, { kind: 'stdio', name: 'missing', command: 'no-such-mcp-command' })).toEqual({
      ok: false,
      error: 'no-such-mcp-command: command not found',
    });
  });

  it('reach the host at its alias and the internet, but none of its private addresses, as sandboxes do', async () => {
    await withHostListener(async ({ tries }) => {
      const t = await startTestApp({ sandboxNamespaces: tools });
      apps.push(t);
      // What it says goes to stderr on one line: a failed test's reason ends with it.
      const probes = tries.map((url) => `echo "$(${fetchFrom(url)}) from ${url};"`).join('; ');
      const result = await mcpTest(t, {
        kind: 'stdio',
        name: 'probe',
        command: 'sh',
        args: ['-c', `(${probes}) | tr "\\n" " " >&2; exit 3`],
      });
      expect(result.error).toContain(`the host answers from ${tries[0]};`);
      for (const url of tries.slice(1)) expect(result.error).toContain(`FETCH-FAILED from ${url};`);
      await vi.waitFor(() => expect(markedProcesses(THROWAWAY_MARKER, t.dataDir)).toEqual([]), { timeout: 5000 });
    });
  });
});
