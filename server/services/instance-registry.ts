import type { Logger } from '../logger';
import type { InstancesStore } from '../store/instances-store';

export interface InstanceTiming {
  /** How often it writes its heartbeat. */
  heartbeatMs: number;
  /** A heartbeat older than this: the instance has gone quiet. */
  quietMs: number;
}

export const DEFAULT_INSTANCE_TIMING: InstanceTiming = { heartbeatMs: 5_000, quietMs: 30_000 };

/** Where another instance's sandbox is looked after: at `address`, or nowhere now (`detail` says why). */
export type Owner = { reachable: true; id: string; address: string } | { reachable: false; id: string; detail: string };

/**
 * This server instance in the registry (its id, address and heartbeat) and what it knows of the
 * others: several instances on one PostgreSQL database each own the sandboxes their runtime runs.
 */
export class InstanceRegistry {
  #heartbeat: NodeJS.Timeout | undefined;
  #address: string | undefined;
  readonly #globalWork: ((quietSince: string) => Promise<void>)[] = [];

  constructor(
    private readonly store: InstancesStore,
    /** This instance. */
    readonly id: string,
    private readonly timing: InstanceTiming,
    private readonly log: Logger,
  ) {}

  /** Registers this instance (again, after a restart), takes the sandboxes nobody owns yet, and keeps the heartbeat going. */
  async start(): Promise<void> {
    await this.store.register(this.id, await this.store.now());
    const claimed = await this.store.claimUnowned(this.id);
    if (claimed > 0) this.log.info({ sandboxes: claimed, instance: this.id }, 'took over sandboxes no instance owned yet');
    this.#heartbeat = setInterval(() => {
      this.#beat().catch((error: unknown) => {
        this.log.warn({ err: error }, 'could not write the instance heartbeat or do the global work');
      });
    }, this.timing.heartbeatMs);
    this.#heartbeat.unref();
  }

  /**
   * Work about every instance (what the ones that went quiet left), done at each heartbeat by one
   * instance at a time: the holder of an advisory lock. It gets the time before which a heartbeat is quiet.
   */
  addGlobalWork(work: (quietSince: string) => Promise<void>): void {
    this.#globalWork.push(work);
  }

  async #beat(): Promise<void> {
    // Written and compared by the database's clock, the one clock every instance shares.
    const now = await this.store.now();
    await this.store.update(this.id, { heartbeat_at: now });
    if (this.#globalWork.length === 0) return;
    const quietSince = new Date(Date.parse(now) - this.timing.quietMs).toISOString();
    await this.store.asGlobalWork(async () => {
      for (const work of this.#globalWork) await work(quietSince);
    });
  }

  /** Where the other instances reach this one's API, once it listens. */
  announce(address: string): Promise<void> {
    this.#address = address;
    return this.store.update(this.id, { address });
  }

  /** Stops the heartbeat and says this instance stopped, so its sandboxes show why at once. */
  async stop(): Promise<void> {
    clearInterval(this.#heartbeat);
    await this.store.update(this.id, { stopped_at: await this.store.now() });
  }

  /** Instance `id`, the owner of a sandbox: where it answers, or why it does not. */
  async owner(id: string): Promise<Owner> {
    const record = await this.store.get(id);
    if (!record) return { reachable: false, id, detail: `Its server instance ${id} is not registered` };
    if (record.stopped_at) {
      return {
        reachable: false,
        id,
        detail: `Its server instance ${id} stopped at ${record.stopped_at}; the sandbox shows again when it runs`,
      };
    }
    if (Date.parse(await this.store.now()) - Date.parse(record.heartbeat_at) > this.timing.quietMs) {
      return { reachable: false, id, detail: `Its server instance ${id} has not been heard from since ${record.heartbeat_at}` };
    }
    if (!record.address) return { reachable: false, id, detail: `Its server instance ${id} is starting and does not listen yet` };
    // Forwarding to our own address would come back here and go round for ever (instances on
    // several hosts that all announce 127.0.0.1, or all the load balancer's address).
    if (id !== this.id && record.address === this.#address) {
      return {
        reachable: false,
        id,
        detail: `Its server instance ${id} announced this instance's own address (${record.address}): give each instance an INSTANCE_URL of its own`,
      };
    }
    return { reachable: true, id, address: record.address };
  }
}
