import type { Selectable } from 'kysely';
import type { Db } from './database';
import type { BrowserSessionsTable } from './schema';

export type BrowserSessionRecord = Selectable<BrowserSessionsTable>;

/** An ended session, with its user's email (null for a user without one, or gone). */
export type EndedSession = BrowserSessionRecord & { email: string | null };

/** Which of a user's sessions end: those issued before a time, those signed in with a key, or all. */
export type SessionSelection = { userId: string; issuedBefore?: string; keyId?: number };

/**
 * The browser sessions given and not yet ended (see BrowserSessionsTable). Ending removes the rows
 * and returns them, so of two instances ending the same session only one gets it back.
 */
export class BrowserSessionsStore {
  constructor(private readonly db: Db) {}

  async insert(session: BrowserSessionRecord): Promise<void> {
    await this.db.insertInto('browser_sessions').values(session).execute();
  }

  /** Removes the sessions `which` selects; returns them. */
  async end(which: SessionSelection): Promise<EndedSession[]> {
    let query = this.db.deleteFrom('browser_sessions').where('user_id', '=', which.userId);
    if (which.issuedBefore !== undefined) query = query.where('issued_at', '<', which.issuedBefore);
    if (which.keyId !== undefined) query = query.where('key_id', '=', which.keyId);
    return this.#withEmails(await query.returningAll().execute());
  }

  /** Removes the sessions that ended by `now`; returns them. */
  async endExpired(now: string): Promise<EndedSession[]> {
    return this.#withEmails(await this.db.deleteFrom('browser_sessions').where('expires_at', '<=', now).returningAll().execute());
  }

  async #withEmails(rows: BrowserSessionRecord[]): Promise<EndedSession[]> {
    if (rows.length === 0) return [];
    const users = await this.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('id', 'in', [...new Set(rows.map((row) => row.user_id))])
      .execute();
    const emails = new Map(users.map((user) => [user.id, user.email]));
    return rows
      .map((row) => ({ ...row, key_id: row.key_id === null ? null : Number(row.key_id), email: emails.get(row.user_id) ?? null }))
      .sort((a, b) => a.issued_at.localeCompare(b.issued_at));
  }
}
