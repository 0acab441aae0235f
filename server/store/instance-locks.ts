import type pg from 'pg';
import type { Logger } from '../logger';
import { postgresClient } from './postgres-client';

/** Advisory lock keys (the two-integer space): one per instance id, and one for the global work. */
export const INSTANCE_ID_LOCKS = 0x4163_0001;
export const GLOBAL_WORK_LOCK = [0x4163_0002, 0] as const;
/**
 * Names the session in pg_stat_activity, so the others can tell whose session holds the global
 * work. Short: PostgreSQL keeps 63 characters of a name, and an id (43) must fit whole after it.
 */
const SESSION_NAME = 'agent-console ';
const NAME_LIMIT = 63;

/*
 * A dead peer's locks go when PostgreSQL drops its session: at once when its process ends, within
 * about a minute when its machine is gone (by TCP keepalive, not the system's two hours). The
 * same holds this side: keepalive probes after 10 s idle, and no query waits for ever on a
 * connection that went silent, nor any connection attempt.
 */
const KEEPALIVE = ['SET tcp_keepalives_idle = 20', 'SET tcp_keepalives_interval = 10', 'SET tcp_keepalives_count = 3'];
const KEEPALIVE_DELAY_MS = 10_000;
const QUERY_TIMEOUT_MS = 10_000;

/** Only this database's locks: pg_locks shows the whole cluster's, other databases' instances included. */
const THIS_DATABASE = '(SELECT oid FROM pg_database WHERE datname = current_database())';

/**
 * A PostgreSQL session of this instance's own, for as long as it runs, holding session-level
 * advisory locks: one on its id (no other live process runs as the same instance) and, once it
 * wins it, the one on the global work (so exactly one instance does that work until it stops).
 * Both go with the session: when this instance stops, or its process or machine dies.
 */
export class InstanceLocks {
  #client: pg.Client | undefined;
  #holdsGlobal = false;
  /** Released for good (the instance stopped): a claim still under way then ends its session. */
  #closed = false;

  constructor(
    private readonly url: string,
    private readonly log: Logger,
  ) {}

  /** Takes the lock on instance `id`; returns false (and keeps no session) when a live process holds it. */
  claimId(id: string): Promise<boolean> {
    this.#closed = false;
    return this.#claim(id);
  }

  /** Takes the lock on `id` again after the session was lost; returns false at once after a release. */
  reclaimId(id: string): Promise<boolean> {
    return this.#closed ? Promise.resolve(false) : this.#claim(id);
  }

  async #claim(id: string): Promise<boolean> {
    const name = `${SESSION_NAME}${id}`;
    if (name.length > NAME_LIMIT)
      throw new Error(`The instance id ${id} is too long: at most ${NAME_LIMIT - SESSION_NAME.length} characters`);
    const client = new (await postgresClient()).Client({
      connectionString: this.url,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
      query_timeout: QUERY_TIMEOUT_MS,
      connectionTimeoutMillis: QUERY_TIMEOUT_MS,
      application_name: name,
    });
    client.on('error', (error) => this.log.warn({ err: error }, 'the session that holds the instance locks failed'));
    try {
      await client.connect();
      for (const statement of KEEPALIVE) await client.query(statement);
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [
        INSTANCE_ID_LOCKS,
        id,
      ]);
      if (!rows[0]?.locked || this.#closed) {
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

  /**
   * Whether this instance holds the global work now: it has it already, or takes it if free. Asked
   * of the session each time: one whose connection went silent (its peer gone, the database's
   * side ended) would otherwise be taken for holding it while another instance does the work. A
   * session that does not respond is ended; the id is claimed again at the next heartbeat.
   */
  async holdGlobalWork(): Promise<boolean> {
    const client = this.#client;
    if (!client) return false;
    try {
      const { rows } = await client.query<{ locked: boolean }>(
        this.#holdsGlobal
          ? `SELECT EXISTS (SELECT FROM pg_locks WHERE locktype = 'advisory' AND database = ${THIS_DATABASE}
               AND classid = $1 AND objid = $2 AND objsubid = 2 AND granted AND pid = pg_backend_pid()) AS locked`
          : 'SELECT pg_try_advisory_lock($1, $2) AS locked',
        [...GLOBAL_WORK_LOCK],
      );
      this.#holdsGlobal = this.#client === client && rows[0]?.locked === true;
    } catch (error) {
      if (this.#client === client) this.#release();
      await client.end().catch(() => undefined);
      throw error;
    }
    return this.#holdsGlobal;
  }

  /** Whether this instance held the global work at its last round; read by tests. */
  get holdsGlobalWork(): boolean {
    return this.#holdsGlobal;
  }

  /**
   * Ends the session that holds the global work when `gone` says its instance is gone (it stopped
   * writing heartbeats while its session lives on: a hung process keeps its connection); the
   * global work is free then.
   */
  async endGoneHolder(gone: (instanceId: string) => Promise<boolean>): Promise<void> {
    const client = this.#client;
    if (!client) return;
    const { rows } = await client.query<{ pid: number; name: string }>(
      `SELECT l.pid, a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.database = ${THIS_DATABASE}
         AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 2 AND l.granted`,
      [...GLOBAL_WORK_LOCK],
    );
    const holder = rows[0];
    if (!holder?.name.startsWith(SESSION_NAME)) return;
    const instance = holder.name.slice(SESSION_NAME.length);
    if (!(await gone(instance))) return;
    this.log.warn({ instance }, 'ended the session of a quiet instance that held the global work');
    await client.query('SELECT pg_terminate_backend($1)', [holder.pid]);
  }

  /** Ends the session, and with it every lock it held; a claim under way ends its own. */
  async release(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#release();
    await client?.end().catch(() => undefined);
  }

  #release(): void {
    this.#client = undefined;
    this.#holdsGlobal = false;
  }
}
