import pg from 'pg';
import type { Logger } from '../logger';

/** Advisory lock keys (the two-integer space): one per instance id, and one for the global work. */
const INSTANCE_ID_LOCKS = 0x4163_0001;
const GLOBAL_WORK_LOCK = [0x4163_0002, 0] as const;
/** Names the session in pg_stat_activity, so the others can tell whose session holds the global work. */
const SESSION_NAME = 'agent-console instance ';

/*
 * A dead peer's locks go when PostgreSQL drops its session: at once when its process ends, within
 * about a minute when its machine is gone (by TCP keepalive, not the system's two hours).
 */
const KEEPALIVE = ['SET tcp_keepalives_idle = 20', 'SET tcp_keepalives_interval = 10', 'SET tcp_keepalives_count = 3'];

/**
 * A PostgreSQL session of this instance's own, for as long as it runs, holding session-level
 * advisory locks: one on its id (no other live process runs as the same instance) and, once it
 * wins it, the one on the global work (so exactly one instance does that work until it stops).
 * Both go with the session: when this instance stops, or its process or machine dies.
 */
export class InstanceLocks {
  #client: pg.Client | undefined;
  #holdsGlobal = false;

  constructor(
    private readonly url: string,
    private readonly log: Logger,
  ) {}

  /** Takes the lock on instance `id`; answers false (and keeps no session) when a live process holds it. */
  async claimId(id: string): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.url, keepAlive: true, application_name: `${SESSION_NAME}${id}` });
    client.on('error', (error) => this.log.warn({ err: error }, 'the session that holds the instance locks failed'));
    try {
      await client.connect();
      for (const statement of KEEPALIVE) await client.query(statement);
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [
        INSTANCE_ID_LOCKS,
        id,
      ]);
      if (!rows[0]?.locked) {
        await client.end();
        return false;
      }
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    client.on('end', () => {
      // The locks went with the session: another instance may take the global work now.
      if (this.#client === client) this.#release();
    });
    this.#client = client;
    return true;
  }

  /** Whether the session holding the id lock is gone (the database restarted, the network failed). */
  get lost(): boolean {
    return this.#client === undefined;
  }

  /** Whether this instance holds the global work now: it has it already, or takes it if free. */
  async holdGlobalWork(): Promise<boolean> {
    const client = this.#client;
    if (!client) return false;
    if (this.#holdsGlobal) return true;
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [...GLOBAL_WORK_LOCK]);
    this.#holdsGlobal = this.#client === client && rows[0]?.locked === true;
    return this.#holdsGlobal;
  }

  get holdsGlobalWork(): boolean {
    return this.#holdsGlobal;
  }

  /**
   * Ends the session that holds the global work when `gone` says its instance is gone (it stopped
   * writing heartbeats while its session lives on: a hung process keeps its connection). Answers
   * whether it did; the global work is free then.
   */
  async endGoneHolder(gone: (instanceId: string) => Promise<boolean>): Promise<boolean> {
    const client = this.#client;
    if (!client) return false;
    const { rows } = await client.query<{ pid: number; name: string }>(
      `SELECT l.pid, a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 2 AND l.granted`,
      [...GLOBAL_WORK_LOCK],
    );
    const holder = rows[0];
    if (!holder?.name.startsWith(SESSION_NAME) || !(await gone(holder.name.slice(SESSION_NAME.length)))) return false;
    this.log.warn({ instance: holder.name.slice(SESSION_NAME.length) }, 'ended the session of a quiet instance that held the global work');
    await client.query('SELECT pg_terminate_backend($1)', [holder.pid]);
    return true;
  }

  /** Ends the session, and with it every lock it held. */
  async release(): Promise<void> {
    const client = this.#client;
    this.#release();
    await client?.end().catch(() => undefined);
  }

  #release(): void {
    this.#client = undefined;
    this.#holdsGlobal = false;
  }
}
