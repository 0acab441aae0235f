import { type Selectable, sql } from 'kysely';
import type { Db } from './database';
import { isPostgres } from './dialect';
import type { ServerInstancesTable } from './schema';

export type InstanceRecord = Selectable<ServerInstancesTable>;

/** The registry of server instances, and which sandboxes each owns. */
export class InstancesStore {
  constructor(private readonly db: Db) {}

  /** Registers (or registers again, after a restart) instance `id`, running from `now`. */
  async register(id: string, now: string): Promise<void> {
    const running = { address: null, started_at: now, heartbeat_at: now, stopped_at: null };
    await this.db
      .insertInto('server_instances')
      .values({ id, ...running })
      .onConflict((oc) => oc.column('id').doUpdateSet(running))
      .execute();
  }

  /**
   * The time by the database's clock (ISO, UTC, milliseconds), by which every instance writes and
   * compares heartbeats: the machines' own clocks may differ. SQLite's instance is its only reader.
   */
  async now(): Promise<string> {
    if (!isPostgres(this.db)) return new Date().toISOString();
    const { rows } = await sql<{
      now: string;
    }>`SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS now`.execute(this.db);
    return rows[0]!.now;
  }

  async update(id: string, changes: Partial<Omit<InstanceRecord, 'id'>>): Promise<void> {
    await this.db.updateTable('server_instances').set(changes).where('id', '=', id).execute();
  }

  get(id: string): Promise<InstanceRecord | undefined> {
    return this.db.selectFrom('server_instances').selectAll().where('id', '=', id).executeTakeFirst();
  }

  list(): Promise<InstanceRecord[]> {
    return this.db.selectFrom('server_instances').selectAll().orderBy('started_at').execute();
  }
}
