import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger';
import { LeftoverRemoval } from './leftover-removal';
import { appendLog, openLogForAppend, tailLines } from './sandbox-log';
import { deleteAllSandboxes, sandboxInfo, shellSpec, startSandbox, statusBecomes } from '../testing/sandbox-helpers';
import { startTestApp, type TestApp, type TestAppOptions } from '../testing/test-app';

/**
 * What a sandbox can do with its files (its log replaced by a directory, a pipe or a link; files it
 * makes undeletable; very many files) must not crash, stall or block the server.
 */

const apps: TestApp[] = [];
const dirs: string[] = [];
afterEach(async () => {
  // Undo what made files undeletable first (only regular files were made immutable), so each app can remove its data dir.
  for (const dir of dirs) {
    if (process.getuid?.() === 0) execFileSync('find', [dir, '-type', 'f', '-exec', 'chattr', '-i', '{}', '+'], { stdio: 'ignore' });
    execFileSync('chmod', ['-R', 'u+rwx', dir], { stdio: 'ignore' });
  }
  for (const t of apps.splice(0)) {
    await deleteAllSandboxes(t);
    await t.close();
  }
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function app(options: TestAppOptions = {}) {
  const t = await startTestApp(options);
  apps.push(t);
  return t;
}

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-files-'));
  dirs.push(dir);
  return dir;
}

describe('the sandbox log, whatever is in its place', () => {
  it('reads the end of a regular file', async () => {
    const file = path.join(tempDir(), 'a.log');
    fs.writeFileSync(file, 'one\ntwo\nthree\n');
    await appendLog(file, 'ended');
    expect(await tailLines(file, 2)).toEqual(['three', '[agent-console] ended']);
  });

  it('reads and writes nothing through a directory, a named pipe, a link or a hard link', async () => {
    const dir = tempDir();
    const outside = path.join(dir, 'outside.txt');
    fs.writeFileSync(outside, 'not for the sandbox\n');
    const asDir = path.join(dir, 'dir.log');
    fs.mkdirSync(asDir);
    const asPipe = path.join(dir, 'pipe.log');
    execFileSync('mkfifo', [asPipe]);
    const asLink = path.join(dir, 'link.log');
    fs.symlinkSync(outside, asLink);
    const asHardLink = path.join(dir, 'hard-link.log');
    fs.linkSync(outside, asHardLink);
    for (const file of [asDir, asPipe, asLink, asHardLink]) {
      // A pipe nobody writes to would block a reader that waits: these return at once.
      expect(await tailLines(file, 10), file).toEqual([]);
      await expect(appendLog(file, 'x')).resolves.toBeUndefined();
      await expect(openLogForAppend(file)).rejects.toThrow();
    }
    expect(fs.readFileSync(outside, 'utf8')).toBe('not for the sandbox\n');
  });
});

/** A spec that puts `what` in place of its own log, then exits with 3 (so the exit path reads the log). */
const replacesItsLog = (id: string, what: string) =>
  shellSpec(id, `L="$HOME/../../sandbox-logs/$AGENT_CONSOLE_SANDBOX_ID.log"; rm -f "$L"; ${what}; exit 3`);

describe('a sandbox that replaces its log', () => {
  it.each([
    ['a directory', 'mkdir "$L"'],
    ['a named pipe', 'mkfifo "$L"'],
    ['a link out of the sandbox', 'ln -s /etc/passwd "$L"'],
    ['a hard link to a file of the server', 'ln "$HOME/../../instance-id" "$L"'],
  ])('with %s: the server stays up, says how it ended and shows no foreign file', async (_name, what) => {
    // As the server's own user: isolated, the sandbox could not reach its log at all.
    const t = await app({ sandboxSpecs: [replacesItsLog('attack', what)], sandboxUidBase: null });
    const instanceId = fs.readFileSync(path.join(t.dataDir, 'instance-id'), 'utf8');
    const { id } = await startSandbox(t, 'attack');
    const ended = await statusBecomes(t, id, 'ERROR');
    expect(ended?.status_detail).toBe('The process exited with code 3');
    const logs = await t.request({ method: 'GET', url: `/api/v1/sandboxes/${id}/logs` });
    expect(logs.statusCode).toBe(200);
    expect(logs.json().lines.join('\n')).not.toContain('root:');
    expect(logs.json().lines.join('\n')).not.toContain(instanceId.trim());
    expect(fs.readFileSync(path.join(t.dataDir, 'instance-id'), 'utf8')).toBe(instanceId);
    expect((await t.app.inject({ method: 'GET', url: '/alive' })).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/sandboxes/${id}` })).statusCode).toBe(200);
  });
});

describe('deleting a sandbox', () => {
  /** Makes `file` impossible for the server to remove: immutable as root, in an unwritable directory otherwise. */
  function makeUndeletable(home: string): void {
    const sub = path.join(home, 'stuck');
    fs.mkdirSync(sub);
    fs.writeFileSync(path.join(sub, 'file'), 'x');
    if (process.getuid?.() === 0) execFileSync('chattr', ['+i', path.join(sub, 'file')]);
    else fs.chmodSync(sub, 0o500);
  }

  it('ends it and its record even when files cannot be removed, logs them, and frees its place under MAX_SANDBOXES', async () => {
    let log = '';
    const t = await app({
      sandboxSpecs: [shellSpec('sleeper', 'exec sleep 600')],
      sandboxLimits: { maxSandboxes: 1 },
      logStream: { write: (line: string) => void (log += line) },
    });
    dirs.push(path.join(t.dataDir, 'sandboxes')); // the trash needs chattr -i before the temp dir can go
    const { id } = await startSandbox(t, 'sleeper');
    await statusBecomes(t, id, 'STARTING');
    makeUndeletable(path.join(t.dataDir, 'sandboxes', id));

    const deleted = await t.request({ method: 'DELETE', url: `/api/v1/sandboxes/${id}` });
    expect(deleted.statusCode).toBe(200);
    expect(await sandboxInfo(t, id)).toBeNull();
    expect(fs.existsSync(path.join(t.dataDir, 'sandboxes', id))).toBe(false); // out of the way at once
    await vi.waitFor(() => expect(log).toContain('could not remove what a deleted sandbox left'), { timeout: 10_000 });
    expect((await t.request({ method: 'POST', url: '/api/v1/sandboxes?sandbox_spec_id=sleeper' })).statusCode).toBe(200);
  });
});

describe('LeftoverRemoval', () => {
  const quiet = createLogger(false);

  it('moves the directory out of the way at once and removes it in the background', async () => {
    const root = tempDir();
    const dir = path.join(root, 'box');
    fs.mkdirSync(path.join(dir, 'a', 'b'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'a', 'b', 'f'), 'x');
    const removal = new LeftoverRemoval(path.join(root, '.trash'), quiet);
    await removal.remove(dir);
    expect(fs.existsSync(dir)).toBe(false);
    await removal.idle();
    expect(fs.readdirSync(path.join(root, '.trash'))).toEqual([]);
  });

  it('tries again after a failure, and the next start sweeps what is left', async () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, 'box'));
    let failures = 2;
    const rm = vi.fn(async (target: string) => {
      if (failures-- > 0) throw Object.assign(new Error('EPERM'), { code: 'EPERM' });
      fs.rmSync(target, { recursive: true });
    });
    const removal = new LeftoverRemoval(path.join(root, '.trash'), quiet, rm, [0, 0]);
    await removal.remove(path.join(root, 'box'));
    await expect.poll(() => fs.readdirSync(path.join(root, '.trash')), { timeout: 5000 }).toEqual([]);
    expect(rm).toHaveBeenCalledTimes(3);

    fs.mkdirSync(path.join(root, '.trash', 'from-an-earlier-run'));
    const next = new LeftoverRemoval(path.join(root, '.trash'), quiet);
    await next.sweep();
    await next.idle();
    expect(fs.readdirSync(path.join(root, '.trash'))).toEqual([]);
  });

  it('gives up after its last retry, until the next start', async () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, 'box'));
    const rm = vi.fn(async () => {
      throw new Error('EPERM');
    });
    const removal = new LeftoverRemoval(path.join(root, '.trash'), quiet, rm, [0]);
    await removal.remove(path.join(root, 'box'));
    await expect.poll(() => rm.mock.calls.length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
    await removal.idle();
    expect(rm).toHaveBeenCalledTimes(2);
  });
});

describe('no sandbox path is touched synchronously', () => {
  const SYNC = [
    'openSync',
    'readFileSync',
    'writeFileSync',
    'appendFileSync',
    'rmSync',
    'rmdirSync',
    'unlinkSync',
    'mkdirSync',
    'renameSync',
    'readdirSync',
    'statSync',
    'lstatSync',
    'existsSync',
  ] as const;

  it('over a whole life: start, output, logs, pause, resume, an exit, delete', async () => {
    const t = await app({ sandboxSpecs: [shellSpec('talker', 'echo hello; exec sleep 600'), shellSpec('quitter', 'echo bye; exit 2')] });
    const sandboxPaths = [path.join(t.dataDir, 'sandboxes'), path.join(t.dataDir, 'sandbox-logs')];
    const touched: string[] = [];
    const fsFunctions = fs as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const name of SYNC) {
      const original = fsFunctions[name]!;
      vi.spyOn(fsFunctions, name).mockImplementation((...args: unknown[]) => {
        const target = String(args[0]);
        if (sandboxPaths.some((dir) => target.startsWith(dir))) touched.push(`${name} ${target}`);
        return original.apply(fs, args);
      });
    }
    try {
      const talker = await startSandbox(t, 'talker');
      const quitter = await startSandbox(t, 'quitter');
      await statusBecomes(t, quitter.id, 'ERROR');
      await expect
        .poll(async () => (await t.request({ method: 'GET', url: `/api/v1/sandboxes/${talker.id}/logs` })).json().lines as string[], {
          timeout: 10_000,
        })
        .toContain('hello');
      for (const action of ['pause', 'resume']) {
        expect((await t.request({ method: 'POST', url: `/api/v1/sandboxes/${talker.id}/${action}` })).statusCode).toBe(200);
      }
      for (const { id } of [talker, quitter]) {
        expect((await t.request({ method: 'DELETE', url: `/api/v1/sandboxes/${id}` })).statusCode).toBe(200);
      }
    } finally {
      vi.restoreAllMocks();
    }
    expect(touched).toEqual([]);
  });
});
