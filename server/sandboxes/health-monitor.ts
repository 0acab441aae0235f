import * as z from 'zod/mini';
import { type ExecutionStatus, executionStatusSchema } from '../../src/contract/conversations';
import type { Logger } from '../logger';
import { SESSION_KEY_HEADER } from '../session-key';

const PROBE_TIMEOUT_MS = 900;
/** Failed checks in a row before a sandbox that answered before counts as not answering. */
const FAILURES_TO_TRIP = 3;

export interface HealthTarget {
  id: string;
  /** Where its agent server answers, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Its agent server's key, to ask how its conversations are doing. */
  sessionKey: string;
}

interface Health {
  /** It has answered at least once since it was last started or resumed. */
  answered: boolean;
  /** Failed checks since the last good one. */
  failures: number;
  /** Each conversation's execution status, as last told. */
  conversations: Map<string, ExecutionStatus>;
}

const conversationListSchema = z.array(z.object({ id: z.string(), execution_status: executionStatusSchema }));

/**
 * Checks each live sandbox's agent server (`GET /alive`) about once a second, in the background,
 * so a status is never older than ~2 s and no request ever waits on a health check. One slow
 * answer does not make a healthy sandbox unhealthy: it takes a few in a row. An agent server that
 * answers is also asked how its conversations are doing, so lists of conversations show their
 * execution status without waiting on any sandbox either.
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

  /** Starts checking; resolves once the first round is done, so the first answers are right. */
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

  /** `true` answering, `false` not answering, `undefined` not checked yet. */
  healthy(id: string): boolean | undefined {
    const health = this.#health.get(id);
    if (!health) return undefined;
    return health.answered ? health.failures < FAILURES_TO_TRIP : false;
  }

  /** The execution status of conversation `conversationId` in sandbox `id`, as last told; `undefined` when unknown. */
  executionStatus(id: string, conversationId: string): ExecutionStatus | undefined {
    return this.#health.get(id)?.conversations.get(conversationId);
  }

  /** Forget what is known (after a pause, resume or delete, the next check decides). */
  forget(id: string): void {
    this.#health.delete(id);
    this.#epoch.set(id, (this.#epoch.get(id) ?? 0) + 1);
  }

  async #probe({ id, url, sessionKey }: HealthTarget): Promise<void> {
    const epoch = this.#epoch.get(id) ?? 0;
    let ok: boolean;
    try {
      const response = await fetch(`${url}/alive`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      ok = response.ok && ((await response.json()) as { status?: unknown }).status === 'ok';
    } catch {
      ok = false;
    }
    const conversations = ok ? await this.#conversations(url, sessionKey) : undefined;
    if ((this.#epoch.get(id) ?? 0) !== epoch) return;
    const before = this.#health.get(id) ?? { answered: false, failures: 0, conversations: new Map() };
    this.#health.set(
      id,
      ok
        ? { answered: true, failures: 0, conversations: conversations ?? before.conversations }
        : { ...before, failures: before.failures + 1 },
    );
  }

  /** What its agent server says of its conversations; `undefined` when it does not say (a spec that is no agent server). */
  async #conversations(url: string, sessionKey: string): Promise<Map<string, ExecutionStatus> | undefined> {
    try {
      const response = await fetch(`${url}/api/conversations`, {
        headers: { [SESSION_KEY_HEADER]: sessionKey },
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      });
      if (!response.ok) return undefined;
      const list = conversationListSchema.safeParse(await response.json());
      return list.success ? new Map(list.data.map((c) => [c.id, c.execution_status])) : undefined;
    } catch {
      return undefined;
    }
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
