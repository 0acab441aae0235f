import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SandboxInfo } from '../../src/contract/sandboxes';
import { markedProcesses } from '../processes/proc';
import { canSwitchUsers } from '../processes/process-user';
import { DATA_DIR_LABEL, SANDBOX_LABEL } from '../sandboxes/docker-runtime';
import { HOST_ALIAS } from '../sandboxes/host-alias';
import { findNamespaceTools, NETWORK_HELPER_MARKER } from '../sandboxes/namespaces';
import { SANDBOX_MARKER } from '../sandboxes/process-runtime';
import { AGENT_SERVER_SPEC_ID } from '../sandboxes/specs';
import { closedPort, listensOn } from '../testing/closed-port';
import { hostAddressFor, localEngine, removeDockerLeftovers, type RuntimeName, runtimesUnderTest } from '../testing/docker-engine';
import { type RemoteShells, startRemoteShells } from '../testing/remote-shells';
import { type ServerProcess, startServerProcess } from '../testing/server-process';

/**
 * What code in a sandbox reaches, tried from inside as the author of a task would (the test drives
 * sandboxes through remote shells), on each runtime, with the server as root and as an
 * unprivileged user: another sandbox's agent server, files a deleted sandbox left, the session
 * cookie through a page it serves, the server's port. Process sandboxes run in namespaces of their
 * own here (where the user running the server has them): without, they are not isolated, as the
 * server says.
 */

const NOBODY = 65534;
/** Sandbox uids of this suite's root servers: a block no other test's sandboxes use. */
const UID_BASE = 3_100_000;

interface Setup {
  runtime: RuntimeName;
  /** The server's uid when not the test's own, with the groups it keeps. */
  asUser?: number;
  groups?: number[];
}

/** The group that may use the Docker engine's socket, for an unprivileged server to drive it. */
function dockerSocketGroup(): number[] {
  const socket = process.env.DOCKER_HOST?.startsWith('unix://') ? process.env.DOCKER_HOST.slice('unix://'.length) : '/var/run/docker.sock';
  return fs.existsSync(socket) ? [fs.statSync(socket).gid] : [];
}

const namespacesFor = (uid: number) => findNamespaceTools({ uid, gid: uid }).tools !== undefined;

const setups: [string, Setup][] = runtimesUnderTest('server/reliability/hostile-sandbox-reach.test.ts').flatMap(
  (runtime): [string, Setup][] => {
    if (!canSwitchUsers())
      return runtime === 'docker' || namespacesFor(process.getuid!()) ? [[`${runtime}, the server as this user`, { runtime }]] : [];
    const unprivileged: Setup = { runtime, asUser: NOBODY, groups: runtime === 'docker' ? dockerSocketGroup() : [] };
    return [
      [`${runtime}, the server as root`, { runtime }],
      ...(runtime === 'docker' || namespacesFor(NOBODY)
        ? [[`${runtime}, the server as an unprivileged user`, unprivileged] as [string, Setup]]
        : []),
    ];
  },
);

/** A WebSocket upgrade whose request-target is not a URL: it once ended an agent server before its key was looked at. */
const BROKEN_UPGRADE = [
  'GET http://[ HTTP/1.1',
  'Host: x',
  'Upgrade: websocket',
  'Connection: Upgrade',
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
  'Sec-WebSocket-Version: 13',
  '',
  '',
].join('\r\n');

/** In-sandbox code: `reach(host, port, payload)` says whether a TCP connection got through, and what came back. */
const REACH = `
const reach = (host, port, payload) => new Promise((resolve) => {
  const socket = require('net').connect({ host, port });
  let connected = false, answer = '';
  const done = () => { socket.destroy(); resolve(connected ? 'connected' + (answer ? ': ' + answer : '') : 'not connected'); };
  socket.setTimeout(3000, done);
  socket.on('connect', () => { connected = true; socket.write(payload); });
  socket.on('data', (data) => { answer += data.toString().slice(0, 60); });
  socket.on('error', done);
  socket.on('close', done);
});`;

/** Sends `payload` from the host and returns the first line of the response. */
const firstLineFrom = (url: string, payload: string) =>
  new Promise<string>((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const socket = net.connect({ host: hostname, port: Number(port) }, () => socket.write(payload));
    let answer = '';
    socket.setTimeout(5000, () => socket.destroy(new Error('no response')));
    socket.on('data', (data: Buffer) => {
      answer += data.toString();
      if (answer.includes('\r\n')) {
        socket.destroy();
        resolve(answer.split('\r\n')[0]!);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer.split('\r\n')[0]!));
  });

// Each test starts sandboxes (containers on Docker) or restarts the server: more than the default time.
describe.each(setups)(
  'sandbox code (%s)',
  (_name, setup) => {
    const { runtime, asUser, groups } = setup;
    let dataDir: string;
    let shells: RemoteShells;
    let server: ServerProcess;
    let victim: SandboxInfo;
    const started: string[] = [];

    const start = async (spec: string) => {
      const response = await server.call('POST', `/api/v1/sandboxes?sandbox_spec_id=${spec}`);
      expect(response.status, response.body).toBe(200);
      const { id } = JSON.parse(response.body) as { id: string };
      started.push(id);
      const info = await vi.waitFor(
        async () => {
          const [info] = JSON.parse((await server.call('GET', `/api/v1/sandboxes?id=${id}`)).body) as SandboxInfo[];
          expect(['RUNNING', 'ERROR']).toContain(info?.status);
          return info!;
        },
        { timeout: 60_000, interval: 200 },
      );
      if (info.status !== 'RUNNING')
        throw new Error(`${spec}: ${JSON.stringify(info)}\n${(await server.call('GET', `/api/v1/sandboxes/${id}/logs`)).body}`);
      return info;
    };
    const urlOf = (info: SandboxInfo, name: string) => info.exposed_urls?.find((url) => url.name === name)?.url ?? '';

    const startServer = (env: Record<string, string> = {}) =>
      startServerProcess({
        dataDir,
        asUser,
        groups,
        env: {
          SANDBOX_RUNTIME: runtime,
          SANDBOX_SPECS_FILE: `${dataDir}-specs.json`,
          SANDBOX_NAMESPACES: runtime === 'process' ? 'on' : 'auto',
          SANDBOX_UID_BASE: String(UID_BASE),
          SANDBOX_STOP_GRACE: '1',
          ...(process.env.DOCKER_HOST ? { DOCKER_HOST: process.env.DOCKER_HOST } : {}),
          ...env,
        },
      });

    beforeAll(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-reach-'));
      if (asUser !== undefined) fs.chownSync(dataDir, asUser, asUser);
      shells = await startRemoteShells((await hostAddressFor(runtime)).host);
      fs.writeFileSync(`${dataDir}-specs.json`, JSON.stringify(['attacker', 'planter', 'successor'].map(shells.spec)));
      server = await startServer();
      victim = await start(AGENT_SERVER_SPEC_ID);
      await start('attacker');
    }, 120_000);

    afterAll(async () => {
      for (const id of started) await server?.call('DELETE', `/api/v1/sandboxes/${id}`).catch(() => undefined);
      await server?.stop();
      await shells?.close();
      // What a failed test may have left behind.
      for (const id of started) {
        for (const { pid } of [...markedProcesses(SANDBOX_MARKER, id), ...markedProcesses(NETWORK_HELPER_MARKER, id)]) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // gone meanwhile
          }
        }
      }
      const engine = runtime === 'docker' ? await localEngine() : undefined;
      if (engine) await removeDockerLeftovers(engine, dataDir);
      fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 2 });
      fs.rmSync(`${dataDir}-specs.json`, { force: true });
    });

    it("cannot reach another sandbox's agent server, and a request that is no URL does not end it", async () => {
      const port = Number(new URL(urlOf(victim, 'AGENT_SERVER')).port);
      const targets: [string, number][] = [
        [HOST_ALIAS, port],
        ['127.0.0.1', port],
        ['127.0.0.2', port],
      ];
      if (runtime === 'docker') {
        // Its container's own address on the sandboxes' network, at every port it exposes.
        const engine = (await localEngine())!;
        const filters = JSON.stringify({ label: [`${SANDBOX_LABEL}=${victim.id}`, `${DATA_DIR_LABEL}=${dataDir}`] });
        const [container] = await engine.listContainers({ filters });
        const inspected = await engine.getContainer(container!.Id).inspect();
        const addresses = Object.values(inspected.NetworkSettings.Networks).map((network) => network.IPAddress);
        const ports = Object.keys(inspected.Config.ExposedPorts ?? {}).map((key) => Number.parseInt(key, 10));
        expect(addresses.length * ports.length).toBeGreaterThan(0);
        for (const address of addresses) for (const exposed of ports) targets.push([address, exposed]);
      }
      const control = Number(new URL(shells.spec('attacker').initial_env.REMOTE_CONTROL!).port);
      const reached = await shells.run<Record<string, string>>(
        'attacker',
        `${REACH}
      const targets = ${JSON.stringify([...targets, [HOST_ALIAS, control]])};
      const results = await Promise.all(targets.map(([host, port]) => reach(host, port, ${JSON.stringify(BROKEN_UPGRADE)})));
      return Object.fromEntries(targets.map(([host, port], i) => [host + ':' + port, results[i]]));`,
      );
      // The way to the host it is given works: what it cannot reach, it cannot reach.
      expect(reached[`${HOST_ALIAS}:${control}`]).toMatch(/^connected/);
      for (const [host, target] of targets) expect(reached[`${host}:${target}`], `${host}:${target}`).toBe('not connected');

      // Any process on the host can send it: the agent server answers and stays up.
      expect(await firstLineFrom(urlOf(victim, 'AGENT_SERVER'), BROKEN_UPGRADE)).toMatch(/^HTTP\/1\.1 4\d\d/);
      expect((await fetch(`${urlOf(victim, 'AGENT_SERVER')}/alive`)).status).toBe(200);
      const [after] = JSON.parse((await server.call('GET', `/api/v1/sandboxes?id=${victim.id}`)).body) as SandboxInfo[];
      expect(after?.status).toBe('RUNNING');
    });

    it('finds nothing a deleted sandbox left (no shared /tmp, its uid not handed out again), sees no other sandbox, and gains nothing from set-id bits', async () => {
      const planter = await start('planter');
      const planted = await shells.run<{ uid: number; home: string }>(
        'planter',
        `const fs = require('fs');
      for (const file of ['/tmp/planted', process.env.HOME + '/planted']) { fs.copyFileSync('/bin/sh', file); fs.chmodSync(file, 0o6755); }
      return { uid: process.getuid(), home: process.env.HOME };`,
      );
      expect((await server.call('DELETE', `/api/v1/sandboxes/${planter.id}`)).status).toBe(200);

      const successor = await start('successor');
      // A set-uid-root shell where it can run it, as an image or a host may hold one.
      const setUidShell = await placeSetUidRootShell(successor.id);
      const seen = await shells.run<{
        uid: number;
        setIdFiles: string[];
        noNewPrivs: boolean;
        capEff: string;
        agentServers: string[];
        euid: string;
      }>(
        'successor',
        `const fs = require('fs');
      const candidates = ['/tmp/planted', ${JSON.stringify(`${planted.home}/planted`)}, ...fs.readdirSync('/tmp').map((name) => '/tmp/' + name)];
      const setIdFiles = [...new Set(candidates)].filter((file) => { try { return (fs.statSync(file).mode & 0o6000) !== 0 && file !== ${JSON.stringify(setUidShell)}; } catch { return false; } });
      const agentServers = fs.readdirSync('/proc').filter((pid) => /^\\d+$/.test(pid)).filter((pid) => {
        try { return fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').includes('agent-server'); } catch { return false; }
      });
      const status = fs.readFileSync('/proc/self/status', 'utf8');
      const euid = require('child_process').execFileSync(${JSON.stringify(setUidShell)}, ['-p', '-c', 'echo $EUID']).toString().trim();
      return { uid: process.getuid(), setIdFiles, agentServers, euid, noNewPrivs: /NoNewPrivs:\\s*1/.test(status), capEff: /CapEff:\\s*(\\w+)/.exec(status)[1] };`,
      );
      expect(seen.setIdFiles).toEqual([]);
      expect(seen.agentServers).toEqual([]);
      expect(seen.noNewPrivs).toBe(true);
      expect(seen.capEff).toMatch(/^0+$/);
      expect(seen.euid).toBe(String(seen.uid));
      // As root the server gives each process sandbox a uid of its own, never the one of a sandbox just deleted.
      if (runtime === 'process' && asUser === undefined && canSwitchUsers()) expect(seen.uid).not.toBe(planted.uid);
    });

    /** Puts a copy of bash owned by root, set-uid, in the sandbox (its home on the host; in a container, through the engine as root); its path there. */
    async function placeSetUidRootShell(id: string): Promise<string> {
      if (runtime === 'process') {
        const file = path.join(dataDir, 'sandboxes', id, 'root-shell');
        fs.copyFileSync('/bin/bash', file);
        fs.chownSync(file, 0, 0);
        fs.chmodSync(file, 0o4755);
        return file;
      }
      const engine = (await localEngine())!;
      const filters = JSON.stringify({ label: [`${SANDBOX_LABEL}=${id}`, `${DATA_DIR_LABEL}=${dataDir}`] });
      const [container] = await engine.listContainers({ filters });
      const exec = await engine.getContainer(container!.Id).exec({
        Cmd: ['sh', '-c', 'cp /bin/bash /root-shell && chmod 4755 /root-shell'],
        User: '0',
        AttachStdout: true,
        AttachStderr: true,
      });
      const stream = await exec.start({});
      await new Promise((resolve) => stream.on('end', resolve).resume());
      expect((await exec.inspect()).ExitCode).toBe(0);
      return '/root-shell';
    }

    it('serves pages only at its exposed URLs, never on the host name the session cookie is set on', async () => {
      const port = await closedPort();
      const worker = await shells.run<string>(
        'attacker',
        `const http = require('http');
      const app = () => http.createServer((request, response) => response.end('sandbox-app'));
      await Promise.all([${port}, Number(process.env.WORKER_1)].map((port) => new Promise((resolve) => app().listen(port, '0.0.0.0', resolve))));
      return process.env.WORKER_1;`,
      );
      expect(Number(worker)).toBeGreaterThan(0);
      const attacker = JSON.parse((await server.call('GET', '/api/v1/sandboxes/search')).body).items.find(
        (info: SandboxInfo) => info.sandbox_spec_id === 'attacker',
      ) as SandboxInfo;
      const workerUrl = urlOf(attacker, 'WORKER_1');
      expect(await (await fetch(workerUrl)).text()).toBe('sandbox-app');
      for (const { url } of [...(attacker.exposed_urls ?? []), ...(victim.exposed_urls ?? [])]) {
        expect(['localhost', '127.0.0.1', new URL(server.url).hostname]).not.toContain(new URL(url).hostname);
      }
      for (const host of ['127.0.0.1', 'localhost']) {
        expect(await listensOn(host, port), `${host}:${port}`).toBe(false);
        expect(await listensOn(host, Number(new URL(workerUrl).port)), `${host}:${new URL(workerUrl).port}`).toBe(false);
      }
    });

    it("cannot take the server's port: the server starts again on it after a SIGKILL, and answers there", async () => {
      const port = Number(new URL(server.url).port);
      const bound = await shells.run<string[]>(
        'attacker',
        `const net = require('net');
      const bound = [];
      // Takes the port wherever it may, again and again, should the server let go of it.
      const grab = (host) => new Promise((resolve) => {
        const listener = net.createServer((socket) => socket.end('HTTP/1.1 200 OK\\r\\n\\r\\nsandbox')).on('error', () => {
          setTimeout(() => grab(host), 100);
          resolve();
        });
        listener.listen(${port}, host, () => { bound.push(host); resolve(); });
      });
      await Promise.all(['127.0.0.1', '0.0.0.0'].map(grab));
      return bound;`,
      );
      // In its own network it may: the port it holds is its own.
      expect(bound.length).toBeGreaterThan(0);
      await server.kill();
      server = await startServer({ PORT: String(port) });
      expect(server.url).toBe(`http://127.0.0.1:${port}`);
      const response = await fetch(`${server.url}/alive`);
      expect(await response.text()).not.toContain('sandbox');
      expect((await server.call('GET', '/api/v1/sandboxes/search')).status).toBe(200);
    });
  },
  60_000,
);
