import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { isStopped, liveProcess, processGroup, readProcStat, sandboxMarker } from './proc';

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

/** How a process ended: its exit code (0 is a clean exit) or the signal that ended it. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export const describeExit = ({ code, signal }: Exit) => (signal ? `was killed by ${signal}` : `exited with code ${code}`);

/** Opens the sandbox's log without following a symlink the sandbox may have put in its place. */
const openLog = (logFile: string, flags: number) => fs.openSync(logFile, flags | fs.constants.O_NOFOLLOW, 0o600);

/** A line of our own in the sandbox's log; the sandbox (and its log) may be deleted already. */
function appendLog(logFile: string, line: string): void {
  try {
    const fd = openLog(logFile, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT);
    try {
      fs.writeSync(fd, `[agent-console] ${line}\n`);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // deleted with its directory, or not a plain file any more: nobody is to read it
  }
}

/**
 * Starts `command` as the leader of a new process group (so the group can be paused, resumed
 * and stopped as one), writing stdout and stderr to `logFile`. It is not tied to this server:
 * it keeps running when the server stops. `onExit` hears how it ended, while this server runs.
 */
export async function launch({ command, cwd, env, logFile }: Launch, onExit: (exit: Exit) => void): Promise<Launched> {
  const [file, ...args] = command;
  if (!file) return { ok: false, error: 'The spec has no command' };
  let log: number;
  try {
    log = openLog(logFile, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT);
  } catch (error) {
    return { ok: false, error: `Cannot open its log: ${error instanceof Error ? error.message : String(error)}` };
  }
  try {
    return await new Promise<Launched>((resolve) => {
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
        appendLog(logFile, `process ${describeExit({ code, signal })}`);
        onExit({ code, signal });
      });
      child.unref();
    });
  } finally {
    fs.closeSync(log);
  }
}

/**
 * Sends `signal` to the process group led by `pid`, but only while `pid` is still the process that
 * started at `startTime`, so a reused pid is never signalled. Answers whether it was sent.
 */
function signalGroup(pid: number | null, startTime: string | null, signal: NodeJS.Signals): boolean {
  if (pid === null || !liveProcess(pid, startTime)) return false;
  return killGroup(pid, signal);
}

/**
 * Pauses (SIGSTOP) or resumes (SIGCONT) the group led by `pid` and waits, up to a second, until
 * `/proc` shows every process of it stopped or running: signals arrive asynchronously, and the
 * answer to a pause must not still read as running. Answers whether the signal was sent.
 */
export async function setGroupStopped(pid: number | null, startTime: string | null, stop: boolean): Promise<boolean> {
  if (pid === null || !signalGroup(pid, startTime, stop ? 'SIGSTOP' : 'SIGCONT')) return false;
  for (let tries = 0; tries < 100 && processGroup(pid).some((member) => isStopped(member) !== stop); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

function killGroup(pgrp: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgrp, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** The group is sandbox `id`'s: its leader is the recorded process, or its members carry the sandbox's marker. */
function isSandboxGroup(pid: number, startTime: string | null, id: string): boolean {
  if (liveProcess(pid, startTime)) return true;
  const members = processGroup(pid);
  return members.length > 0 && members.every((member) => sandboxMarker(member.pid) === id);
}

/**
 * Ends sandbox `id`'s process group: SIGTERM and SIGCONT (a paused group must run to exit), up to
 * `graceMs` to finish, then SIGKILL for whatever is left. This also works when the leader is gone
 * and left processes behind, as long as they are the sandbox's own.
 */
export async function stopGroup(pid: number | null, startTime: string | null, graceMs: number, id: string): Promise<void> {
  if (pid === null || !isSandboxGroup(pid, startTime, id)) return;
  killGroup(pid, 'SIGTERM');
  killGroup(pid, 'SIGCONT');
  for (const deadline = Date.now() + graceMs; Date.now() < deadline && processGroup(pid).length > 0;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (processGroup(pid).length === 0) return;
  killGroup(pid, 'SIGKILL');
  for (let tries = 0; tries < 40 && processGroup(pid).length > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** The last `count` lines of a log file (only its end is read; a symlink is not followed). */
export function tailLines(file: string, count: number): string[] {
  let fd: number;
  try {
    fd = openLog(file, fs.constants.O_RDONLY);
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
