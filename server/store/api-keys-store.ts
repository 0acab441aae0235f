import type { Selectable } from 'kysely';
import { cachedWhileUnchanged } from './cached-read';
import type { Db } from './database';
import type { ApiKeysTable } from './schema';

export type ApiKeyRecord = Selectable<ApiKeysTable>;

/** Users' API keys, found by their hash. */
export class ApiKeysStore {
  readonly #byHash: (hash: string) => Promise<ApiKeyRecord | undefined>;

  constructor(private readonly db: Db) {
    // Every request with an API key reads its key: cached while nothing is written.
    this.#byHash = cachedWhileUnchanged(db, (hash) =>
      db.selectFrom('api_keys').selectAll().where('key_hash', '=', hash).executeTakeFirst(),
    );
  }

  async insert(key: Omit<ApiKeyRecord, 'id' | 'last_used_at'>): Promise<ApiKeyRecord> {
    return this.db.insertInto('api_keys').values(key).returningAll().executeTakeFirstOrThrow();
  }

  byHash(hash: string): Promise<ApiKeyRecord | undefined> {
    return this.#byHash(hash);
  }

  byId(id: number): Promise<ApiKeyRecord | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  }

  list(userId: string): Promise<ApiKeyRecord[]> {
    return this.db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  }

  async delete(userId: string, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('api_keys').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async deleteAll(userId: string): Promise<void> {
    await this.db.deleteFrom('api_keys').where('user_id', '=', userId).execute();
  }

  async touch(id: number, at: string): Promise<void> {
    await this.db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  }

  /** Notes a key's first use; false when another request noted it first. */
  async touchFirst(id: number, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ last_used_at: at })
      .where('id', '=', id)
      .where('last_used_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
