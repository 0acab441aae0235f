import type { Db } from './database';
import { lockForUpdate } from './dialect';
import { cachedWhileUnchanged } from './cached-read';

/** Where the team's defaults are stored: a settings document of their own, beside the users'. */
export const TEAM_DEFAULTS_ROW = 'organization:default';

/** Persists one settings document (JSON text) per user, and the team's defaults (`TEAM_DEFAULTS_ROW`). */
export class SettingsStore {
  /** Most requests read the settings; they change seldom. */
  readonly #load: (userId: string) => Promise<string | undefined>;

  constructor(private readonly db: Db) {
    this.#load = cachedWhileUnchanged(db, async (userId) => {
      const row = await db.selectFrom('user_settings').select('document').where('user_id', '=', userId).executeTakeFirst();
      return row?.document;
    });
  }

  load(userId: string): Promise<string | undefined> {
    return this.#load(userId);
  }

  /**
   * Reads, changes and writes the document in one transaction, so two saves at once can't lose
   * each other's changes (on PostgreSQL, not even from two instances).
   */
  async update(userId: string, change: (current: string | undefined) => string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockForUpdate(trx, `user_settings:${userId}`);
      const row = await trx.selectFrom('user_settings').select('document').where('user_id', '=', userId).executeTakeFirst();
      const document = change(row?.document);
      const updated_at = new Date().toISOString();
      await trx
        .insertInto('user_settings')
        .values({ user_id: userId, document, updated_at })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ document, updated_at }))
        .execute();
    });
  }

  async delete(userId: string): Promise<void> {
    await this.db.deleteFrom('user_settings').where('user_id', '=', userId).execute();
  }
}
