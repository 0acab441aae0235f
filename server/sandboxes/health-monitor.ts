const PROBE_TIMEOUT_MS = 900;

export interface HealthTarget {
  id: string;
  port: number;
}

/**
 * Checks each live sandbox's agent server (`GET /alive`) about once a second, in the background,
 * so a status is never older than ~2 s and no request ever waits on a health check.
 */
export class HealthMonitor {
  readonly #healthy = new Map<string, boolean>();
  #timer: NodeJS.Timeout | undefined;
  #probing = false;

  constructor(
    private readonly targets: () => Promise<HealthTarget[]>,
    private readonly intervalMs = 1000,
  ) {}

  start(): void {
    this.#timer ??= setInterval(() => void this.probeAll(), this.intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Whether the last check answered; `undefined` before the first one. */
  healthy(id: string): boolean | undefined {
    return this.#healthy.get(id);
  }

  /** Forget what is known (after a pause, resume or delete, the next check decides). */
  forget(id: string): void {
    this.#healthy.delete(id);
  }

  async probe({ id, port }: HealthTarget): Promise<boolean> {
    let ok: boolean;
    try {
      const response = await fetch(`http://127.0.0.1:${port}/alive`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      ok = response.ok && ((await response.json()) as { status?: unknown }).status === 'ok';
    } catch {
      ok = false;
    }
    this.#healthy.set(id, ok);
    return ok;
  }

  async probeAll(): Promise<void> {
    if (this.#probing) return; // the previous round is still waiting on a slow sandbox
    this.#probing = true;
    try {
      await Promise.all((await this.targets()).map((target) => this.probe(target)));
    } catch {
      // a failed round (the database closing at shutdown) is simply skipped
    } finally {
      this.#probing = false;
    }
  }
}
