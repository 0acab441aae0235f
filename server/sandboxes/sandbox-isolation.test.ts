import { sessionKeyCaller } from '../authz/caller';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DATABASE_FILE } from '../data-dir';
import { canSwitchUsers } from '../processes/process-user';
import { findNamespaceTools } from './namespaces';
import { builtServerScript } from '../testing/built-server';
import { localEngine, runtimesUnderTest } from '../testing/docker-engine';
import { DATA_DIR_LABEL } from './docker-runtime';
import { logLines, shellSpec, startSandbox, statusBecomes } from '../testing/sandbox-helpers';
import { homeOf } from '../testing/sandbox-processes';
import { startTestApp, type TestApp } from '../testing/test-app';

/**
 * Sandbox code must not read the server's secrets nor another sandbox's files. As root, each
 * process sandbox (and every MCP test process) runs as a uid of its own and can read none of the
 * server's secrets; not as root, the server says at start that sandboxes are not isolated. CI runs
 * as root; the unprivileged server runs via setpriv. Containers (the docker runtime) hold nothing
 * of the server, whoever runs it.
 */

const runtimes = runtimesUnderTest('server/sandboxes/sandbox-isolation.test.ts');
const apps: TestApp[] = [];
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** What the sandbox tries, `$D` being the server's data dir: it prints a word for each thing it manages to do. */
const PROBE = [
  'echo "uid=$(id -u) gid=$(id -g) groups=$(id -G)"',
  'echo "home=$HOME tmp=$TMPDIR"',
  `cat "$D/${DATABASE_FILE}" >/dev/null 2>&1 && echo READ-DATABASE`,
  'cat "$D/secrets.key" >/dev/null 2>&1 && echo READ-SECRETS-KEY',
  'ls "$D" >/dev/null 2>&1 && echo LISTED-DATA-DIR',
  'ls "$D/sandboxes" >/dev/null 2>&1 && echo LISTED-SANDBOXES',
  'cat "/proc/$SERVER_PID/environ" >/dev/null 2>&1 && echo READ-SERVER-ENVIRON',
  'kill -0 "$SERVER_PID" 2>/dev/null && echo SIGNALLED-SERVER',
  'touch "$TMPDIR/t" && touch "$HOME/h" && echo WROTE-OWN-FILES',
  'echo probed',
  'exec sleep 600',
].join('; ');
const REACHED_THE_SERVER = [
  'READ-DATABASE',
  'READ-SECRETS-KEY',
  'LISTED-DATA-DIR',
  'LISTED-SANDBOXES',
  'READ-SERVER-ENVIRON',
  'SIGNALLED-SERVER',
];

async function logsOf(t: TestApp, id: string): Promise<string> {
  const lines = await vi.waitFor(
    async () => {
      const found = await logLines(t, id);
      expect(found).toContain('probed');
      return found;
    },
    { timeout: 10_000 },
  );
  return lines.join('\n');
}

describe.each(runtimes)('%s sandboxes, against the server', (runtime) => {
  /** Whether its sandboxes are kept from the server: containers always, processes when the server may switch users. */
  const isolated = runtime === 'docker' || canSwitchUsers();

  it(
    isolated ? 'run as a user of their own each, and read none of the server secrets' : 'run as the server’s user (not root): no boundary',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-test-'));
      const probe = { ...shellSpec('probe', PROBE), initial_env: { SERVER_PID: String(process.pid), D: dataDir } };
      const t = await startTestApp({ dataDir, sandboxRuntime: runtime, sandboxSpecs: [probe] });
      apps.push(t);
      fs.writeFileSync(path.join(t.dataDir, 'secrets.key'), 'a key\n', { mode: 0o600 });
      const first = await startSandbox(t, 'probe');
      const second = await startSandbox(t, 'probe');
      const [one, two] = [await logsOf(t, first.id), await logsOf(t, second.id)];
      const uidOf = (log: string) => Number(/uid=(\d+)/.exec(log)?.[1]);

      const home = homeOf(t, first.id);
      expect(one).toContain(`home=${home} tmp=${runtime === 'docker' ? '/tmp' : path.join(home, 'tmp')}`);
      expect(one).toContain('WROTE-OWN-FILES');
      if (!isolated) {
        // Not a boundary here, as the server says when it starts (see below).
        expect(uidOf(one)).toBe(process.getuid?.());
        return;
      }
      for (const log of [one, two]) for (const word of REACHED_THE_SERVER) expect(log).not.toContain(word);
      expect(one).toContain(`uid=${uidOf(one)} gid=${uidOf(one)} groups=${uidOf(one)}`);
      if (runtime === 'docker') {
        // the same unprivileged user in each, kept apart by their containers
        expect([uidOf(one), uidOf(two)]).toEqual([1000, 1000]);
      } else {
        expect(uidOf(one)).toBeGreaterThanOrEqual(t.sandboxUidBase!);
        expect(uidOf(two)).toBeGreaterThanOrEqual(t.sandboxUidBase!);
        expect(uidOf(one)).not.toBe(uidOf(two));
        expect(mode(t.dataDir)).toBe(0o711);
        expect(mode(path.join(t.dataDir, 'sandboxes'))).toBe(0o711);
        expect(mode(path.join(t.dataDir, 'sandbox-logs'))).toBe(0o700);
        for (const file of fs.readdirSync(t.dataDir).filter((name) => name.startsWith(DATABASE_FILE))) {
          expect(mode(path.join(t.dataDir, file)), file).toBe(0o600);
        }
      }

      // Commands run in a sandbox (git, a setup script) run as its user too.
      const exec = await t.services.sandboxes.exec(sessionKeyCaller, first.id, ['id', '-u'], { timeoutMs: 5000 });
      expect(exec.output.trim()).toBe(String(uidOf(one)));
    },
  );
});

// On the Docker runtime, an MCP stdio server under test runs as a sandbox's would: in a container of the sandbox image.
describe.each(runtimes.filter((runtime) => runtime === 'docker'))('%s sandboxes, an MCP stdio server under test', (runtime) => {
  it('runs in a throwaway container: none of the server’s files, environment or engine, and nothing left after', async () => {
    const t = await startTestApp({ sandboxRuntime: runtime });
    apps.push(t);
    const probe = [
      'echo "uid=$(id -u) groups=$(id -G)"',
      `cat "${t.dataDir}/secrets.key" >/dev/null 2>&1 && echo READ-SECRETS-KEY`,
      `ls "${t.dataDir}" >/dev/null 2>&1 && echo LISTED-DATA-DIR`,
      `grep -qz SESSION "/proc/${process.pid}/environ" 2>/dev/null && echo READ-SERVER-ENVIRON`,
      'test -S /var/run/docker.sock && echo ENGINE-SOCKET',
      'echo probed',
    ].join('; ');
    const response = await t.request({
      method: 'POST',
      url: '/api/mcp/test?timeout=30',
      payload: { kind: 'stdio', name: 'probe', command: 'sh', args: ['-c', `{ ${probe}; } >&2; exit 1`] },
    });
    const { error } = response.json() as { error: string };
    expect(error).toContain('probed');
    expect(error).toContain('uid=1000');
    for (const word of ['READ-SECRETS-KEY', 'LISTED-DATA-DIR', 'READ-SERVER-ENVIRON', 'ENGINE-SOCKET']) expect(error).not.toContain(word);
    const engine = (await localEngine())!;
    const left = await engine.listContainers({ all: true, filters: JSON.stringify({ label: [`${DATA_DIR_LABEL}=${t.dataDir}`] }) });
    expect(left).toEqual([]);
  });
});

// MCP stdio servers under test on the process runtime run on the host, in namespaces of their own where there are.
describe(canSwitchUsers() ? 'as root, MCP test processes' : 'not as root, MCP test processes', () => {
  it('run as one more uid of their own', async () => {
    const t = await startTestApp();
    apps.push(t);
    const response = await t.request({
      method: 'POST',
      url: '/api/mcp/test?timeout=5',
      payload: { kind: 'stdio', name: 'whoami', command: 'sh', args: ['-c', 'echo "uid $(id -u) home $HOME" >&2; exit 1'] },
    });
    const expected = canSwitchUsers() ? t.sandboxUidBase! - 1 : process.getuid?.();
    expect(response.json().error).toContain(`uid ${expected}`);
    if (canSwitchUsers()) expect(response.json().error).toMatch(new RegExp(`home ${path.join(t.dataDir, 'throwaway-homes')}/[0-9a-f]{16}`));
  });
});

/** Starts the real server (built, as `npm start` runs it), optionally through `setpriv` as another user; resolves with its output once it listens. */
async function startServer(dataDir: string, asUser?: number, env: Record<string, string> = {}): Promise<string> {
  const node = [process.execPath, builtServerScript('main')];
  const command = asUser === undefined ? node : ['setpriv', `--reuid=${asUser}`, `--regid=${asUser}`, '--clear-groups', ...node];
  const child = spawn(command[0]!, command.slice(1), {
    env: { PATH: process.env.PATH, HOME: dataDir, DATA_DIR: dataDir, PORT: '0', CONSOLE_DIR: path.join(dataDir, 'none'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await vi.waitFor(
    () => {
      if (child.exitCode === null) expect(output).toContain('Agent Console is running');
    },
    { timeout: 15_000 },
  );
  child.kill('SIGTERM');
  await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
  return output;
}

describe('the server at start', () => {
  it('as the user running the tests (root on CI): DATA_DIR for sandboxes to pass through but not list, keys and database 0600', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-own-user-'));
    dirs.push(dataDir);
    const output = await startServer(dataDir);
    expect(output).toContain('Agent Console is running');
    // One line names what keeps sandboxes apart.
    expect(output).toMatch(
      /^Sandboxes (run as processes in namespaces of their own|run as processes without namespaces|are not isolated)/m,
    );
    expect(output.includes('not isolated')).toBe(!canSwitchUsers());
    // Its output is a pipe here, as a log file would be: the key is not in it, only where it is.
    expect(output).not.toContain('#key=');
    expect(output).toContain(`and sign in with the session key, which is in ${path.join(dataDir, 'session-api-key')}.`);
    expect(mode(dataDir)).toBe(canSwitchUsers() ? 0o711 : 0o700);
    for (const file of ['secrets.key', 'session-api-key', DATABASE_FILE]) expect(mode(path.join(dataDir, file)), file).toBe(0o600);
  });

  it('as an unprivileged user without namespaces: says that process sandboxes are not isolated, DATA_DIR 0700', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-unprivileged-'));
    dirs.push(dataDir);
    const unprivileged = 65534; // nobody
    if (canSwitchUsers()) fs.chownSync(dataDir, unprivileged, unprivileged);
    const output = await startServer(dataDir, canSwitchUsers() ? unprivileged : undefined, { SANDBOX_NAMESPACES: 'off' });
    expect(output).toContain('Agent Console is running');
    expect(output).toContain('Process sandboxes are not isolated');
    expect(output).toContain('Docker runtime');
    expect(output).toContain("\nSandboxes are not isolated: they run as this server's user");
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(path.join(dataDir, DATABASE_FILE))).toBe(0o600);
  });

  it.skipIf(!findNamespaceTools({ uid: 65534, gid: 65534 }).tools)(
    'as an unprivileged user with bubblewrap and slirp4netns: sandboxes get namespaces of their own, and nothing is said to be unisolated',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-unprivileged-'));
      dirs.push(dataDir);
      const unprivileged = 65534;
      if (canSwitchUsers()) fs.chownSync(dataDir, unprivileged, unprivileged);
      const output = await startServer(dataDir, canSwitchUsers() ? unprivileged : undefined);
      expect(output).toContain('process sandboxes run in namespaces of their own');
      expect(output).not.toContain('not isolated');
    },
  );

  it.runIf(canSwitchUsers())('as root, a sandbox whose command its user cannot read ends in ERROR saying what to change', async () => {
    const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-closed-'));
    dirs.push(closed);
    fs.writeFileSync(path.join(closed, 'run.sh'), 'exec sleep 600\n');
    const t = await startTestApp({ sandboxSpecs: [{ ...shellSpec('closed', ''), command: ['sh', path.join(closed, 'run.sh')] }] });
    apps.push(t);
    const { id } = await startSandbox(t, 'closed');
    const failed = await statusBecomes(t, id, 'ERROR');
    expect(failed.status_detail).toBe(
      `Could not start: Sandboxes run as other users, who cannot enter ${closed} (mode 0700), where its command is (${path.join(closed, 'run.sh')}): install it under a directory others can enter (such as /opt), or let them through with: chmod o+x ${closed}`,
    );
  });

  it('with SANDBOX_NAMESPACES=on and no bubblewrap: does not start, and says why', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-no-tools-'));
    dirs.push(dataDir);
    const output = await startServer(dataDir, undefined, { SANDBOX_NAMESPACES: 'on', PATH: path.join(dataDir, 'no-tools-here') });
    expect(output).not.toContain('Agent Console is running');
    expect(output).toContain('SANDBOX_NAMESPACES=on, but sandboxes cannot have namespaces: not installed: ');
  });
});
