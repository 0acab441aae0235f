import type { Selectable } from 'kysely';
import type { Db } from './database';
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

  async update(id: string, changes: Partial<Omit<InstanceRecord, 'id'>>): Promise<void> {
    await this.db.updateTable('server_instances').set(changes).where('id', '=', id).execute();
  }

  get(id: string): Promise<InstanceRecord | undefined> {
    return this.db.selectFrom('server_instances').selectAll().where('id', '=', id).executeTakeFirst();
  }

  list(): Promise<InstanceRecord[]> {
    return this.db.selectFrom('server_instances').selectAll().orderBy('started_at').execute();
  }

  /** Sandboxes recorded before instances owned any (an upgrade, a copy from SQLite) become `id`'s. */
  async claimUnowned(id: string): Promise<number> {
    const result = await this.db
      .updateTable('sandboxes')
      .set({ owner_instance: id })
      .where('owner_instance', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
