import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { liveProcess, processGroup, readProcStat } from './proc';

/** A free loopback port for a sandbox's agent server. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Launch {
  command: string[];
  cwd: string;
  env: Record<string, string>;
  logFile: string;
}

export type Launched = { ok: true; pid: number; startTime: string } | { ok: false; error: string };

/** How a process ended, in words. */
export const describeExit = (code: number | null, signal: NodeJS.Signals | null) =>
  signal ? `was killed by ${signal}` : `exited with code ${code}`;

/** A line of our own in the sandbox's log; the sandbox (and its log) may be deleted already. */
function appendLog(logFile: string, line: string): void {
  try {
    fs.appendFileSync(logFile, `[agent-console] ${line}\n`);
  } catch {
    // deleted with its directory: nobody is left to read it
  }
}

/**
 * Starts `command` as the leader of a new process group (so the group can be paused, resumed
 * and stopped as one), writing stdout and stderr to `logFile`. It is not tied to this server:
 * it keeps running when the server stops. `onExit` hears how it ended, while this server runs.
 */
export function launch({ command, cwd, env, logFile }: Launch, onExit: (detail: string) => void): Promise<Launched> {
  const [file, ...args] = command;
  if (!file) return Promise.resolve({ ok: false, error: 'The spec has no command' });
  const log = fs.openSync(logFile, 'a');
  return new Promise<Launched>((resolve) => {
    const child = spawn(file, args, { cwd, env, detached: true, stdio: ['ignore', log, log] });
    child.once('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'ENOENT' ? `${error.message} (command not found)` : error.message;
      appendLog(logFile, `could not start: ${reason}`);
      resolve({ ok: false, error: reason });
    });
    child.once('spawn', () => {
      const stat = child.pid === undefined ? undefined : readProcStat(child.pid);
      resolve(
        stat
          ? { ok: true, pid: stat.pid, startTime: stat.startTime }
          : { ok: false, error: 'The process ended before it could be recorded' },
      );
    });
    child.once('exit', (code, signal) => {
      const detail = describeExit(code, signal);
      appendLog(logFile, `process ${detail}`);
      onExit(detail);
    });
    child.unref();
  }).finally(() => fs.closeSync(log));
}

/**
 * Sends `signal` to the process group led by `pid`, but only while `pid` is still the process that
 * started at `startTime`, so a reused pid is never signalled. Answers whether it was sent.
 */
export function signalGroup(pid: number | null, startTime: string | null, signal: NodeJS.Signals): boolean {
  if (!liveProcess(pid, startTime) || pid === null) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

function killGroup(pgrp: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgrp, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/**
 * Ends a sandbox's processes: SIGTERM and SIGCONT (a paused group must run to exit), up to
 * `graceMs` to finish, then SIGKILL for whatever of the group is left. The group is ended even
 * when its leader is gone already (a shell that exited and left a server behind).
 */
export async function stopGroup(pid: number | null, startTime: string | null, graceMs: number): Promise<void> {
  if (pid === null) return;
  // The leader is ours (same start time), or gone with members of its group still there.
  const ours = liveProcess(pid, startTime) !== undefined || (readProcStat(pid) === undefined && processGroup(pid).length > 0);
  if (!ours) return;
  killGroup(pid, 'SIGTERM');
  killGroup(pid, 'SIGCONT');
  for (const deadline = Date.now() + graceMs; Date.now() < deadline && processGroup(pid).length > 0;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (processGroup(pid).length === 0) return;
  killGroup(pid, 'SIGKILL');
  for (let tries = 0; tries < 40 && processGroup(pid).length > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** The last `count` lines of a log file (only its end is read). */
export function tailLines(file: string, count: number): string[] {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return [];
  }
  try {
    const size = fs.fstatSync(fd).size;
    const length = Math.min(size, Math.max(64 * 1024, count * 400));
    const buffer = Buffer.alloc(length);
    fs.readSync(fd, buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    if (length < size) lines.shift(); // the first line is probably cut
    return lines.slice(-count);
  } finally {
    fs.closeSync(fd);
  }
}
