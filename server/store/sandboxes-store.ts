import type { Selectable } from 'kysely';
import type { Db } from './database';
import { cachedWhileUnchanged, readsAreCached } from './cached-read';
import type { SandboxesTable } from './schema';

export type SandboxRecord = Selectable<SandboxesTable>;

/** The sandbox registry. */
export class SandboxesStore {
  /** Every sandbox search, conversation page and health round asks for the list; it changes seldom. */
  readonly #list: (key: string) => Promise<SandboxRecord[]>;

  readonly #listCached: boolean;

  constructor(private readonly db: Db) {
    this.#listCached = readsAreCached(db);
    this.#list = cachedWhileUnchanged(db, () =>
      db.selectFrom('sandboxes').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute(),
    );
  }

  /** Every sandbox, newest first (frozen: the same list may be returned again). */
  list(): Promise<readonly SandboxRecord[]> {
    return this.#list('');
  }

  get(id: string): Promise<SandboxRecord | undefined> {
    return this.db.selectFrom('sandboxes').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Those of `ids` that exist, in no particular order; on SQLite, the cached list's (frozen) rows. */
  async getMany(ids: string[]): Promise<readonly SandboxRecord[]> {
    if (ids.length === 0) return [];
    // Where the list is cached (SQLite), picking from it is cheaper than binding a hundred ids.
    if (this.#listCached) {
      const wanted = new Set(ids);
      return (await this.list()).filter((record) => wanted.has(record.id));
    }
    return this.db.selectFrom('sandboxes').selectAll().where('id', 'in', ids).execute();
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('sandboxes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** `created_by_user_id` absent: the owner's. */
  async insert(record: Omit<SandboxRecord, 'created_by_user_id'> & { created_by_user_id?: string }): Promise<void> {
    await this.db.insertInto('sandboxes').values(record).execute();
  }

  async update(id: string, changes: Partial<Omit<SandboxRecord, 'id'>>): Promise<void> {
    await this.db.updateTable('sandboxes').set(changes).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('sandboxes').where('id', '=', id).execute();
  }
}
