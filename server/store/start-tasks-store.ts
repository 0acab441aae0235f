import { type Selectable, type SqlBool, sql } from 'kysely';
import { isPostgres } from './dialect';
import type { TaskFilter } from '../../src/contract/conversations';
import type { Db } from './database';
import { userIs, type UserScope } from './user-scope';
import type { StartTasksTable } from './schema';

export type StartTaskRecord = Selectable<StartTasksTable>;

export type TaskSort = 'CREATED_AT' | 'CREATED_AT_DESC' | 'UPDATED_AT' | 'UPDATED_AT_DESC';

/** Start tasks of conversations, saved at every step. */
export class StartTasksStore {
  constructor(private readonly db: Db) {}

  async insert(record: StartTaskRecord): Promise<void> {
    await this.db.insertInto('start_tasks').values(record).execute();
  }

  get(scope: UserScope, id: string): Promise<StartTaskRecord | undefined> {
    return this.db.selectFrom('start_tasks').selectAll().where(userIs(scope)).where('id', '=', id).executeTakeFirst();
  }

  async getMany(scope: UserScope, ids: string[]): Promise<StartTaskRecord[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('start_tasks').selectAll().where(userIs(scope)).where('id', 'in', ids).execute();
  }

  /**
   * Saves the progress of task `id` while it is unfinished; returns whether it was. A task READY or
   * in ERROR stays so: the holder of global work may have ended it (its instance went quiet) while
   * its instance still ran it.
   */
  async update(scope: UserScope, id: string, changes: Partial<Omit<StartTaskRecord, 'id' | 'user_id' | 'created_at'>>): Promise<boolean> {
    const result = await this.db
      .updateTable('start_tasks')
      .set(changes)
      .where(userIs(scope))
      .where('id', '=', id)
      .where('status', 'not in', ['READY', 'ERROR'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Tasks of instance `instanceId` (or of none) that were neither READY nor in ERROR: what it left when it stopped mid-way. */
  unfinished(instanceId: string): Promise<StartTaskRecord[]> {
    return this.db
      .selectFrom('start_tasks')
      .selectAll()
      .where('status', 'not in', ['READY', 'ERROR'])
      .where((eb) => eb.or([eb('owner_instance', '=', instanceId), eb('owner_instance', 'is', null)]))
      .execute();
  }

  /** Ends in ERROR the unfinished tasks of every instance other than `instanceId` that stopped or is quiet since `quietSince`. */
  async interruptOfGoneInstances(instanceId: string, quietSince: string, detail: string, now: string): Promise<number> {
    const result = await this.db
      .updateTable('start_tasks')
      .set({ status: 'ERROR', detail, updated_at: now })
      .where('status', 'not in', ['READY', 'ERROR'])
      .where('owner_instance', 'in', (eb) =>
        eb
          .selectFrom('server_instances')
          .select('id')
          .where('id', '!=', instanceId)
          .where((w) => w.or([w('stopped_at', 'is not', null), w('heartbeat_at', '<', quietSince)])),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async delete(scope: UserScope, id: string): Promise<void> {
    await this.db.deleteFrom('start_tasks').where(userIs(scope)).where('id', '=', id).execute();
  }

  async deleteForConversation(scope: UserScope, conversationId: string): Promise<void> {
    await this.db.deleteFrom('start_tasks').where(userIs(scope)).where('app_conversation_id', '=', conversationId).execute();
  }

  /** See conversations-store's applyFilter on why, in another order, SQLite gets `+created_at`. */
  #filtered(scope: UserScope, filter: TaskFilter, sortBy?: 'created_at' | 'updated_at') {
    let query = this.db.selectFrom('start_tasks').where(userIs(scope));
    if (filter.conversation_id__eq) query = query.where('app_conversation_id', '=', filter.conversation_id__eq);
    const createdAt = sortBy === 'updated_at' && !isPostgres(this.db) ? sql`+created_at` : sql.ref('created_at');
    if (filter.created_at__gte) query = query.where(sql<SqlBool>`${createdAt} >= ${filter.created_at__gte}`);
    return query;
  }

  /** One page by offset (tasks are few and short-lived; OpenHands pages them by offset too). */
  async search(scope: UserScope, filter: TaskFilter, sort: TaskSort, offset: number, limit: number) {
    const column = sort.startsWith('UPDATED_AT') ? 'updated_at' : 'created_at';
    const direction = sort.endsWith('_DESC') ? 'desc' : 'asc';
    const rows = await this.#filtered(scope, filter, column)
      .selectAll()
      .orderBy(column, direction)
      .orderBy('id', direction)
      .offset(offset)
      .limit(limit + 1)
      .execute();
    return { rows: rows.slice(0, limit), more: rows.length > limit };
  }

  async count(scope: UserScope, filter: TaskFilter): Promise<number> {
    const row = await this.#filtered(scope, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
