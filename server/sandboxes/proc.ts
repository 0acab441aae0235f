import fs from 'node:fs';

/** What `/proc/<pid>/stat` says about a process (Linux). */
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

/** The process `pid` if it still is the one that started at `startTime` (pids get reused) and has not exited. */
export function liveProcess(pid: number | null, startTime: string | null): ProcStat | undefined {
  if (pid === null || startTime === null) return undefined;
  const stat = readProcStat(pid);
  return stat && stat.startTime === startTime && stat.state !== 'Z' && stat.state !== 'X' ? stat : undefined;
}

/** Stopped by a signal (T) or by a tracer (t): a paused sandbox. */
export const isStopped = (stat: ProcStat) => stat.state === 'T' || stat.state === 't';

/** Every live process in process group `pgrp`. */
export function processGroup(pgrp: number): ProcStat[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProcStat(Number(name)))
    .filter((stat): stat is ProcStat => stat !== undefined && stat.pgrp === pgrp && stat.state !== 'Z');
}

/** The value of variable `name` in a process's environment, if it has it (and we may read it). */
export function environValue(pid: number, name: string): string | undefined {
  try {
    const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
    const entry = environ.split('\0').find((item) => item.startsWith(`${name}=`));
    return entry?.slice(name.length + 1);
  } catch {
    return undefined;
  }
}

/** Every live process whose environment has `name=value`: the marks the server gives what it starts. */
export function markedProcesses(name: string, value: string): ProcStat[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => environValue(Number(entry), name) === value)
    .map((entry) => readProcStat(Number(entry)))
    .filter((stat): stat is ProcStat => stat !== undefined && stat.state !== 'Z');
}

/** Set in every sandbox's environment, so its processes can be told apart from any others. */
export const SANDBOX_MARKER = 'AGENT_CONSOLE_SANDBOX_ID';

/** The sandbox id in a process's environment, if it has one. */
export const sandboxMarker = (pid: number) => environValue(pid, SANDBOX_MARKER);

/** Every live process that belongs to sandbox `id`, found by its marker (even without a recorded pid). */
export const sandboxProcesses = (id: string) => markedProcesses(SANDBOX_MARKER, id);
