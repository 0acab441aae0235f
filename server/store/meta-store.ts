import type { Db } from './database';

/** Small named values about this installation (not about any user). */
export class MetaStore {
  constructor(private readonly db: Db) {}

  async get(key: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('server_meta').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  /** Stores `value` unless the key has one already; returns the value that is stored. */
  async getOrSet(key: string, value: string): Promise<string> {
    await this.db
      .insertInto('server_meta')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return (await this.get(key)) ?? value;
  }

  /** Stores `value`, replacing the one stored. */
  async set(key: string, value: string): Promise<void> {
    await this.db
      .insertInto('server_meta')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}
