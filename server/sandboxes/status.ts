import type { SandboxStatus } from '../../src/contract/sandboxes';
import { isStopped, type ProcStat } from './proc';

export interface Observation {
  /** The sandbox's process as `/proc` shows it now; `undefined` when it is gone or not there yet. */
  process: ProcStat | undefined;
  /** Whether the registry knows its process yet (it is recorded right after it starts). */
  recorded: boolean;
  /** The health check: answering, not answering, or `undefined` when not checked yet. */
  healthy: boolean | undefined;
  /** Why it is not running: a spawn error or how it exited (recorded while this server ran). */
  exitDetail: string | null;
  /** Milliseconds since the last start or resume. */
  sinceStart: number;
  startTimeoutMs: number;
}

/**
 * A sandbox's status from its real process: stopped (T) is PAUSED; alive and answering is
 * RUNNING; alive and not answering yet is STARTING until the start timeout, ERROR after it;
 * gone is ERROR when it failed or exited on its own, MISSING otherwise. What is not known yet (a
 * process not recorded or not checked yet) is STARTING, never an error.
 */
export function sandboxStatus(o: Observation): { status: SandboxStatus; detail: string | null } {
  if (o.exitDetail) return { status: 'ERROR', detail: o.exitDetail };
  if (!o.process) return o.recorded ? { status: 'MISSING', detail: null } : { status: 'STARTING', detail: null };
  if (isStopped(o.process)) return { status: 'PAUSED', detail: null };
  if (o.healthy) return { status: 'RUNNING', detail: null };
  if (o.healthy === undefined || o.sinceStart < o.startTimeoutMs) return { status: 'STARTING', detail: null };
  return { status: 'ERROR', detail: `The agent server has not answered on /alive for ${Math.round(o.startTimeoutMs / 1000)} s` };
}
