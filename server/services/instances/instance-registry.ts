import { ConfigError } from '../../config';
import type { Logger } from '../../logger';
import type { InstanceLocks } from '../../store/instance-locks';
import type { InstancesStore } from '../../store/instances-store';

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
  #stopped = false;
  readonly #globalWork: ((quietSince: string) => Promise<void>)[] = [];
  #idTaken = (message: string) => this.log.error({ instance: this.id }, message);

  constructor(
    private readonly store: InstancesStore,
    /** This instance. */
    readonly id: string,
    private readonly timing: InstanceTiming,
    private readonly log: Logger,
    /** Its PostgreSQL session's locks; absent on SQLite, where this instance is alone and is never started. */
    private readonly locks?: InstanceLocks,
  ) {}

  /**
   * Registers this instance (again, after a restart) and keeps the heartbeat going; refused while
   * another live process runs as the same instance (its id is its data dir's: they would end each
   * other's sandboxes and starts). Takes the global work at once when no other instance holds it.
   */
  async start(): Promise<void> {
    if (this.locks && !(await this.locks.claimId(this.id))) {
      throw new ConfigError(
        `The server instance id ${this.id} (DATA_DIR/instance-id) is in use: another running instance has it ` +
          '(give each instance a DATA_DIR of its own), or this instance ran on a host that died and PostgreSQL ' +
          'has not dropped its session yet (it does within about a minute: start again then)',
      );
    }
    this.#stopped = false;
    try {
      await this.store.register(this.id, await this.store.now());
      // A failed first round is retried at each heartbeat, as any later one: the database responded just now.
      await this.#globalWorkRound(await this.store.now()).catch((error: unknown) => {
        this.log.warn({ err: error }, 'could not do the global work');
      });
    } catch (error) {
      await this.locks?.release();
      throw error;
    }
    this.#scheduleBeat();
  }

  /** One beat at a time: the next is timed from the end of the last, however long that took. */
  #scheduleBeat(): void {
    if (this.#stopped) return;
    this.#heartbeat = setTimeout(() => {
      this.#beat()
        .catch((error: unknown) => {
          this.log.warn({ err: error }, 'could not write the instance heartbeat or do the global work');
        })
        .finally(() => this.#scheduleBeat());
    }, this.timing.heartbeatMs);
    this.#heartbeat.unref();
  }

  /**
   * Work about every instance (what the ones that stopped or went quiet left mid-way), done by
   * one instance only: the holder of an advisory lock, at once when it takes it and at each
   * heartbeat after. It gets the time before which a heartbeat is quiet. The work must bear being
   * done twice: a holder whose session broke may finish a round while the next holder starts one.
   */
  addGlobalWork(work: (quietSince: string) => Promise<void>): void {
    this.#globalWork.push(work);
  }

  /**
   * What happens when this instance lost its session and another process took its id meanwhile:
   * both would look after the same sandboxes and starts. The server exits (run-server.ts); by
   * default it is logged.
   */
  whenIdTaken(handler: (message: string) => void): void {
    this.#idTaken = handler;
  }

  /** Whether this instance did the global work at its last round; read by tests. */
  get holdsGlobalWork(): boolean {
    return this.locks?.holdsGlobalWork ?? false;
  }

  async #beat(): Promise<void> {
    if (this.#stopped) return;
    // The heartbeat first, written and compared by the database's clock (the one clock every
    // instance shares): whatever fails after it, the others still see this instance live.
    const now = await this.store.now();
    await this.store.update(this.id, { heartbeat_at: now });
    if (this.locks?.lost) {
      try {
        if (!(await this.locks.reclaimId(this.id)) && !this.#stopped) {
          this.#idTaken(
            `Another process runs as server instance ${this.id} now: this one lost its database session and the other took its id. ` +
              'Each instance needs a DATA_DIR of its own.',
          );
        }
      } catch (error) {
        this.log.warn({ err: error }, 'could not take the lock on this instance id again');
      }
    }
    await this.#globalWorkRound(now);
  }

  async #globalWorkRound(now: string): Promise<void> {
    if (this.#stopped || !this.locks) return;
    const quietSince = new Date(Date.parse(now) - this.timing.quietMs).toISOString();
    if (!(await this.locks.holdGlobalWork())) {
      // A holder gone quiet whose session lives on (its process hangs) would keep the work for ever: it loses it.
      await this.locks.endGoneHolder(async (id) => {
        const holder = await this.store.get(id);
        return holder !== undefined && (holder.stopped_at !== null || holder.heartbeat_at < quietSince);
      });
      return;
    }
    for (const work of this.#globalWork) await work(quietSince);
  }

  /** Where the other instances reach this one's API, once it listens. */
  announce(address: string): Promise<void> {
    this.#address = address;
    return this.store.update(this.id, { address });
  }

  /** Stops the heartbeat and says this instance stopped, so its sandboxes show why at once. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#heartbeat);
    try {
      await this.store.update(this.id, { stopped_at: await this.store.now() });
    } finally {
      // Its locks go: another instance takes the global work, and this id may run again.
      await this.locks?.release();
    }
  }

  /** Instance `id`, the owner of a sandbox: where it can be reached, or why it cannot. */
  async owner(id: string | null): Promise<Owner> {
    if (id === null) {
      return {
        reachable: false,
        id: '',
        detail:
          'No server instance owns it: an earlier migrate-to-postgres copied it without an owner; ' +
          'set its owner_instance to the id in the copied DATA_DIR/instance-id',
      };
    }
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
      return { reachable: false, id, detail: `Its server instance ${id} has sent no heartbeat since ${record.heartbeat_at}` };
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
