import type { SandboxStatus } from '../../src/contract/sandboxes';
import type { RuntimeState } from './runtime';

export interface Observation {
  /** What the runtime sees of it now. */
  state: RuntimeState;
  /** The health check: responding, not responding, or `undefined` when not checked yet. */
  healthy: boolean | undefined;
  /** Why it is not running: a start error or how it exited (recorded while this server ran). */
  exitDetail: string | null;
  /** When it last started or resumed (ISO), and now (ms): read only when they decide (a search looks at every sandbox). */
  startedAt: string;
  now: number;
  startTimeoutMs: number;
  /** The image whose own command it runs, when that is what should have started the agent server. */
  image: string | null;
}

/**
 * A sandbox's status from what its runtime sees: paused is PAUSED; running and responding is
 * RUNNING; running and not responding yet is STARTING until the start timeout, ERROR after it;
 * gone is ERROR when it failed or exited on its own, MISSING otherwise. What is not known yet (a
 * start not recorded or not checked yet) is STARTING, never an error. An image that was to run the
 * agent server by itself and never responds is named: it is the wrong image. An ERROR whose
 * processes still run says so: they hold memory until Delete ends them.
 */
export function sandboxStatus(o: Observation): { status: SandboxStatus; detail: string | null } {
  if (o.exitDetail) return { status: 'ERROR', detail: o.exitDetail };
  if (o.state === 'missing') return { status: 'MISSING', detail: null };
  if (o.state === 'pending') return { status: 'STARTING', detail: null };
  if (o.state === 'paused') return { status: 'PAUSED', detail: null };
  if (o.healthy) return { status: 'RUNNING', detail: null };
  if (o.healthy === undefined || o.now - Date.parse(o.startedAt) < o.startTimeoutMs) return { status: 'STARTING', detail: null };
  const seconds = Math.round(o.startTimeoutMs / 1000);
  const detail = o.image
    ? `The image ${o.image} did not start the agent server (no response on /alive for ${seconds} s)`
    : `The agent server has not responded on /alive for ${seconds} s`;
  return { status: 'ERROR', detail: `${detail}; its processes still run (Delete ends them)` };
}
