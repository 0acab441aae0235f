import fs from 'node:fs';

/*
 * What Linux's /proc tells about processes. Read fresh on every call: a process's state is the
 * truth about a sandbox, and it changes behind the server's back.
 */

/** What `/proc/<pid>/stat` says about a process. */
export interface ProcStat {
  pid: number;
  /** One letter: R running, S sleeping, T stopped, Z zombie… */
  state: string;
  pgrp: number;
  /** Clock ticks after boot when the process started: with the pid, it names one process for good. */
  startTime: string;
}

/** Reads `/proc/<pid>/stat`; `undefined` when there is no such process. */
export function readProcStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: the fields after it start after the last ")".
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [state, , pgrp] = fields;
  const startTime = fields[19];
  if (!state || !pgrp || !startTime) return undefined;
  return { pid, state, pgrp: Number(pgrp), startTime };
}

/** Exited, and not yet reaped (Z) or being reaped (X). */
export const isGone = (stat: ProcStat) => stat.state === 'Z' || stat.state === 'X';

/** The process `pid` if it still is the one that started at `startTime` (pids get reused) and has not exited. */
export function liveProcess(pid: number | null, startTime: string | null): ProcStat | undefined {
  if (pid === null || startTime === null) return undefined;
  const stat = readProcStat(pid);
  return stat && stat.startTime === startTime && !isGone(stat) ? stat : undefined;
}

/** Stopped by a signal (T) or by a tracer (t). */
export const isStopped = (stat: ProcStat) => stat.state === 'T' || stat.state === 't';

/** Every live process, read from /proc: one look that several questions about them can share. */
export function liveProcesses(): ProcStat[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProcStat(Number(name)))
    .filter((stat): stat is ProcStat => stat !== undefined && !isGone(stat));
}

/** Every live process in process group `pgrp`. */
export const processGroup = (pgrp: number): ProcStat[] => liveProcesses().filter((stat) => stat.pgrp === pgrp);

/**
 * The value of variable `name` in a process's environment, if it has it (and we may read it).
 * Sought in its bytes, only the value decoded: every process's environment is read when a
 * sandbox's processes are looked for.
 */
export function environValue(pid: number, name: string): string | undefined {
  let environ: Buffer;
  try {
    environ = fs.readFileSync(`/proc/${pid}/environ`);
  } catch {
    return undefined;
  }
  // Each entry ends with a NUL: an entry of `name` starts the environment or follows a NUL.
  const key = Buffer.from(`${name}=`);
  for (let at = environ.indexOf(key); at !== -1; at = environ.indexOf(key, at + 1)) {
    if (at > 0 && environ[at - 1] !== 0) continue;
    const end = environ.indexOf(0, at);
    return environ.toString('utf8', at + key.length, end === -1 ? environ.length : end);
  }
  return undefined;
}

/**
 * Every live process (of `among`, a look already taken) whose environment has `name=value`. The
 * server marks what it starts this way, so it finds its processes again even when it stopped
 * before recording them.
 */
export const markedProcesses = (name: string, value: string, among: ProcStat[] = liveProcesses()): ProcStat[] =>
  among.filter((stat) => environValue(stat.pid, name) === value);

/** The real uid a process runs as; `undefined` when it is gone. */
function uidOf(pid: number): number | undefined {
  try {
    const match = /^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Every live process running as `uid` (a sandbox's own user: whatever it started, wherever it went). */
export const processesOfUser = (uid: number): ProcStat[] => liveProcesses().filter((stat) => uidOf(stat.pid) === uid);

/** The real uid of every live process. */
export function runningUids(): Set<number> {
  const uids = new Set<number>();
  for (const stat of liveProcesses()) {
    const uid = uidOf(stat.pid);
    if (uid !== undefined) uids.add(uid);
  }
  return uids;
}
