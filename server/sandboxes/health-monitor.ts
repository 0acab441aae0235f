import type { Logger } from '../logger';
import { constantBackoff, polls } from '../retry';

const PROBE_TIMEOUT_MS = 900;
/** Failed checks in a row before a sandbox that responded before counts as not responding. */
const FAILURES_TO_TRIP = 3;
/** How often a sandbox that is starting is asked until it first responds (a refused connection is cheap). */
const STARTING_RETRY_MS = 10;

export interface HealthTarget {
  id: string;
  /** Where its agent server listens, e.g. `http://127.0.0.1:41234`. */
  url: string;
}

interface Health {
  /** It has responded at least once since it was last started or resumed. */
  responded: boolean;
  /** Failed checks since the last good one. */
  failures: number;
}

/** Whether the agent server at `url` says it is alive. */
async function isAlive(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/alive`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    return response.ok && ((await response.json()) as { status?: unknown }).status === 'ok';
  } catch {
    return false;
  }
}

/**
 * Checks each live sandbox's agent server (`GET /alive`) about once a second, in the background,
 * so a status is never older than a round and a probe's timeout, and no request ever waits on a
 * health check. One slow response does not make a healthy sandbox unhealthy: it takes a few in
 * a row. (How its conversations are doing comes live over their event sockets: see EventCollector.)
 */
export class HealthMonitor {
  readonly #health = new Map<string, Health>();
  /** Bumped by `forget`, so a check that was under way meanwhile does not write back. */
  readonly #epoch = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<void> | undefined;

  constructor(
    private readonly targets: () => Promise<HealthTarget[]>,
    private readonly log: Logger,
    private readonly intervalMs = 1000,
  ) {}

  /** Starts checking; resolves once the first round is done, so the first results are right. */
  async start(): Promise<void> {
    if (!this.#timer) {
      this.#timer = setInterval(() => void this.probeAll(), this.intervalMs);
      this.#timer.unref();
    }
    await this.probeAll();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** `true` responding, `false` not responding, `undefined` not checked yet. */
  healthy(id: string): boolean | undefined {
    const health = this.#health.get(id);
    if (!health) return undefined;
    return health.responded ? health.failures < FAILURES_TO_TRIP : false;
  }

  /** Forget what is known (after a pause, resume or delete, the next check decides). */
  forget(id: string): void {
    this.#health.delete(id);
    this.#epoch.set(id, (this.#epoch.get(id) ?? 0) + 1);
  }

  /**
   * Asks a sandbox that is starting (or resuming) right away, and again every few milliseconds
   * until it first responds, `timeoutMs` passes or it is forgotten: its status turns RUNNING as soon
   * as its agent server listens, not at the next round. Resolves whether it responded.
   */
  async watchStarting({ id, url }: HealthTarget, timeoutMs: number): Promise<boolean> {
    const epoch = this.#epoch.get(id) ?? 0;
    for await (const _ of polls(constantBackoff(STARTING_RETRY_MS), { timeoutMs })) {
      const ok = await isAlive(url);
      if ((this.#epoch.get(id) ?? 0) !== epoch) return false;
      if (ok) {
        this.#health.set(id, { responded: true, failures: 0 });
        return true;
      }
    }
    return false;
  }

  async #probe({ id, url }: HealthTarget): Promise<void> {
    const epoch = this.#epoch.get(id) ?? 0;
    const ok = await isAlive(url);
    if ((this.#epoch.get(id) ?? 0) !== epoch) return;
    const before = this.#health.get(id) ?? { responded: false, failures: 0 };
    this.#health.set(id, ok ? { responded: true, failures: 0 } : { ...before, failures: before.failures + 1 });
  }

  /** One round over every target; a round still running (a slow sandbox) is joined, not doubled. */
  probeAll(): Promise<void> {
    this.#round ??= (async () => {
      try {
        const targets = await this.targets();
        const live = new Set(targets.map((t) => t.id));
        for (const id of this.#health.keys()) if (!live.has(id)) this.#health.delete(id);
        await Promise.all(targets.map((target) => this.#probe(target)));
      } catch (error) {
        // The round is skipped; the next one may well work (the database was busy, or closing at shutdown).
        this.log.warn({ err: error }, 'a round of sandbox health checks failed');
      } finally {
        this.#round = undefined;
      }
    })();
    return this.#round;
  }
}
