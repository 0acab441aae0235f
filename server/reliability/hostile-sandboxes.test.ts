import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DATABASE_FILE } from '../data-dir';
import { canSwitchUsers } from '../processes/process-user';
import { readProcStat } from '../processes/proc';
import { pingAlive, type ServerProcess, startServerProcess } from '../testing/server-process';
import { report, size } from './soak';

/**
 * Sandboxes whose code attacks the server that runs them: the server must not crash, stall, leak
 * its secrets or leave processes behind. The real server runs in a process of its own, as root
 * (sandboxes isolated by uid) and as an unprivileged user (not isolated: they can reach their logs
 * and the data dir, so the server's own defences are tested). Throughout, `/alive` is requested
 * one request after another: every one must get a response.
 */

const MANY_FILES = size(20_000, 200_000);
const NOBODY = 65534;
/** Sandbox uids of this suite's servers: a block no other test's sandboxes use (each server ends whatever runs as its sandboxes' uids). */
const UID_BASE = 3_000_000;

/** Each spec is one attack; `ready` is the line it prints once it has done its part. */
const ATTACKS = {
  'log-dir': 'L="$HOME/../../sandbox-logs/$AGENT_CONSOLE_SANDBOX_ID.log"; rm -f "$L"; mkdir "$L"; exit 3',
  'log-pipe': 'L="$HOME/../../sandbox-logs/$AGENT_CONSOLE_SANDBOX_ID.log"; rm -f "$L"; mkfifo "$L"; exit 3',
  'log-link': 'L="$HOME/../../sandbox-logs/$AGENT_CONSOLE_SANDBOX_ID.log"; rm -f "$L"; ln -s "$HOME/../../secrets.key" "$L"; exit 3',
  undeletable: 'mkdir -p stuck/inner && touch stuck/inner/f && chmod 000 stuck/inner && chmod 500 stuck; echo ready; exec sleep 600',
  'many-files': `mkdir many && cd many && seq 1 ${MANY_FILES} | xargs touch && echo ready; exec sleep 600`,
  // Forks that leave the process group: a new session keeping the marker; isolated, also one that drops it.
  escaper: 'setsid sleep 3601 & ISOLATED_ONLY echo ready; exec sleep 600',
  reader: [
    'D="$HOME/../.."',
    `cat "$D/secrets.key" "$D/session-api-key" "$D/${DATABASE_FILE}" 2>&1 | head -c 2000`,
    'ls -la "$D" "$HOME/.." 2>&1',
    'cat "/proc/$PPID/environ" 2>&1 | tr "\\0" "\\n"',
    'ls -l "/proc/$PPID/fd" 2>&1 | head -50',
    'echo ready; exec sleep 600',
  ].join('; '),
} as const;

type Attack = keyof typeof ATTACKS;

/**
 * The attacks a server faces: all of them when sandboxes are isolated; not isolated, the reader is
 * left out, as such a sandbox can read the data dir by design (the server says so at start).
 */
const attacksFor = (isolated: boolean) => (Object.keys(ATTACKS) as Attack[]).filter((attack) => isolated || attack !== 'reader');

function specsFile(dir: string, isolated: boolean): string {
  const file = path.join(dir, 'hostile-specs.json');
  const specs = attacksFor(isolated).map((id) => ({
    id,
    // Not isolated, a process that drops the marker and leaves the group is out of reach (SECURITY.md).
    command: ['sh', '-c', ATTACKS[id].replace('ISOLATED_ONLY', isolated ? 'env -i setsid sleep 3602 &' : '')],
    initial_env: {},
    working_dir: '',
  }));
  fs.writeFileSync(file, JSON.stringify(specs));
  return file;
}

const servers: ServerProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill();
  // Sandboxes outlive their server: after a failure, end what is left before removing its files.
  for (const dir of dirs) for (const pid of processesIn(dir)) killQuietly(pid);
  for (const dir of dirs.splice(0)) {
    fs.chmodSync(dir, 0o700);
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  }
});

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone meanwhile
  }
}

/** Live processes whose working directory is under `dir` (a sandbox's home, also once moved to the trash). */
function processesIn(dir: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readProcStat(Number(pid))?.state !== 'Z' && fs.readlinkSync(`/proc/${pid}/cwd`).startsWith(dir);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** What a run left: processes working in its data dir, or running as one of its sandboxes' uids (wherever they went). */
function leftovers(dataDir: string, uids: Set<number>): string[] {
  const found = new Set(processesIn(dataDir));
  for (const pid of fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const uid = Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
      if (uids.has(uid) && readProcStat(Number(pid))?.state !== 'Z') found.add(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return [...found].map((pid) => {
    try {
      return `${pid} ${fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')}`;
    } catch {
      return `${pid}`;
    }
  });
}

async function attackServer(isolated: boolean) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-hostile-'));
  dirs.push(dataDir);
  const asUser = isolated ? undefined : canSwitchUsers() ? NOBODY : undefined;
  if (asUser !== undefined) fs.chownSync(dataDir, asUser, asUser);
  const server = await startServerProcess({
    dataDir,
    asUser,
    env: {
      SANDBOX_SPECS_FILE: specsFile(dataDir, isolated),
      MAX_SANDBOXES: '20',
      SANDBOX_UID_BASE: String(UID_BASE),
      MAX_RUNNING_SANDBOXES: '20',
      SANDBOX_STOP_GRACE: '1',
      LOG_LEVEL: 'debug',
    },
  });
  servers.push(server);
  const secrets = [server.key, fs.readFileSync(path.join(dataDir, 'secrets.key'), 'utf8').trim()];
  const pinger = pingAlive(server.url);

  const attacks = attacksFor(isolated);
  const ids = {} as Record<Attack, string>;
  for (const attack of attacks) {
    const started = await server.call('POST', `/api/v1/sandboxes?sandbox_spec_id=${attack}`);
    expect(started.status, started.body).toBe(200);
    ids[attack] = (JSON.parse(started.body) as { id: string }).id;
  }
  const bodies: string[] = [];
  for (const attack of attacks) {
    const exits = attack.startsWith('log-');
    const seen = await vi.waitFor(
      async () => {
        const [info, logs] = [
          await server.call('GET', `/api/v1/sandboxes?id=${ids[attack]}`),
          await server.call('GET', `/api/v1/sandboxes/${ids[attack]}/logs?tail=500`),
        ];
        expect(logs.status).toBe(200);
        if (exits) expect(info.body, attack).toContain('"ERROR"');
        else expect(logs.body, attack).toContain('ready');
        return { info: info.body, logs: logs.body };
      },
      { timeout: size(60_000, 300_000), interval: 100 },
    );
    expect(exits ? seen.info : seen.logs, attack).toContain(exits ? 'The process exited with code 3' : 'ready');
    bodies.push(seen.info, seen.logs);
  }
  // Isolated, each sandbox's uid is the owner of its home: whatever runs as it afterwards was left behind.
  const uids = new Set(isolated ? attacks.map((attack) => fs.statSync(path.join(dataDir, 'sandboxes', ids[attack])).uid) : []);
  const deleteStarted = Date.now();
  for (const attack of attacks) {
    const deleted = await server.call('DELETE', `/api/v1/sandboxes/${ids[attack]}`);
    expect(deleted.status, `${attack}: ${deleted.body}`).toBe(200);
  }
  const deleteSeconds = (Date.now() - deleteStarted) / 1000;
  await vi.waitFor(() => expect(leftovers(dataDir, uids)).toEqual([]), { timeout: 5000, interval: 100 });
  const search = await server.call('GET', '/api/v1/sandboxes/search');
  const pings = await pinger.stop();

  expect(pings.failures).toEqual([]);
  expect(pings.ok).toBeGreaterThan(0);
  expect(JSON.parse(search.body).items).toEqual([]);
  for (const body of [...bodies, search.body]) for (const secret of secrets) expect(body).not.toContain(secret);
  expect(server.output()).not.toMatch(/uncaught|EISDIR|FATAL/i);
  report('hostile-sandboxes', { isolated, files: MANY_FILES, pingsOk: pings.ok, deleteSeconds });
}

describe('hostile sandboxes', () => {
  it(
    canSwitchUsers() ? 'as root (isolated by uid): the server stays up, reveals nothing and leaves no process behind' : 'as this user',
    async () => attackServer(canSwitchUsers()),
    size(90_000, 600_000),
  );

  it(
    'as an unprivileged user (not isolated): logs replaced by a directory, a pipe or a link, undeletable files — the same',
    async () => attackServer(false),
    size(90_000, 600_000),
  );
});
