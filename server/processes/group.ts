import { type ChildProcess, spawn, type SpawnOptions } from 'node:child_process';
import { constantBackoff, polls } from '../retry';
import { isStopped, processGroup, readProcStat } from './proc';

/*
 * Process groups: everything the server starts on the machine (sandboxes, commands run in them,
 * MCP servers under test) runs as the leader of a group of its own, so that what it starts in
 * turn (an `npx` wrapper's server, a shell's background job) is paused, resumed and ended with it.
 */

/** Starts `file` as the leader of a new process group (its pid is the group's id). */
export function spawnGroup(file: string, args: readonly string[], options: Omit<SpawnOptions, 'detached'>): ChildProcess {
  return spawn(file, args, { ...options, detached: true });
}

/** Sends `signal` to every process of group `pgrp`; `false` when the group is gone. */
export function signalGroup(pgrp: number, signal: NodeJS.Signals): boolean {
  if (pgrp <= 1) throw new Error(`Refusing to signal process group ${pgrp}`);
  try {
    process.kill(-pgrp, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** Waits until `done` holds, looking at once and again every `everyMs`, `waits` times at most; returns whether it held. */
async function poll(done: () => boolean, everyMs: number, waits: number): Promise<boolean> {
  for await (const _ of polls(constantBackoff(everyMs, waits))) if (done()) return true;
  return false;
}

/**
 * SIGSTOP (`stop`) or SIGCONT for group `pgrp`, then waits, up to a second, until `/proc` shows
 * every member stopped or running: signals arrive asynchronously, and the response to a pause must
 * not still read as running. Returns whether the signal was sent.
 */
export async function setGroupStopped(
  pgrp: number,
  stop: boolean,
  // Its members are found once (a look at every process, unless the caller took one); then only theirs are read, every millisecond.
  members: number[] = processGroup(pgrp).map((member) => member.pid),
): Promise<boolean> {
  if (!signalGroup(pgrp, stop ? 'SIGSTOP' : 'SIGCONT')) return false;
  const inWantedState = (pid: number) => {
    const stat = readProcStat(pid);
    return !stat || stat.pgrp !== pgrp || isStopped(stat) === stop;
  };
  await poll(() => members.every(inWantedState), 1, 1000);
  return true;
}

/**
 * Ends group `pgrp`: SIGTERM and SIGCONT (a stopped group must run to exit), up to `graceMs` to
 * finish, then SIGKILL for whatever is left; resolves once the group is gone (or after a second
 * more, should a process be stuck in the kernel).
 */
export async function endGroup(pgrp: number, graceMs: number): Promise<void> {
  if (!signalGroup(pgrp, 'SIGTERM')) return;
  signalGroup(pgrp, 'SIGCONT');
  const empty = () => processGroup(pgrp).length === 0;
  if (await poll(empty, 50, Math.ceil(graceMs / 50))) return;
  signalGroup(pgrp, 'SIGKILL');
  await poll(empty, 25, 40);
}
