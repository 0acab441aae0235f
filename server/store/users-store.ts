import { type Selectable, type SqlBool, sql } from 'kysely';
import { cachedWhileUnchanged } from './cached-read';
import type { Db } from './database';
import { lockForUpdate } from './dialect';
import type { UsersTable } from './schema';

export type UserRecord = Selectable<UsersTable>;
export type NewUser = Omit<
  UserRecord,
  'sessions_since' | 'last_sign_in_at' | 'max_running_sandboxes' | 'max_sandboxes' | 'email_verified' | 'monthly_cost_limit'
>;

/** The key every change to roles and statuses takes, so "one owner always remains" holds across instances. */
const TEAM_LOCK = 'users:team';

/** The team's users (see `UsersTable`). */
export class UsersStore {
  readonly #get: (id: string) => Promise<UserRecord | undefined>;

  constructor(private readonly db: Db) {
    // Every request signed in with a cookie or an API key reads its user: cached while nothing is written.
    this.#get = cachedWhileUnchanged(db, (id) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst());
  }

  get(id: string): Promise<UserRecord | undefined> {
    return this.#get(id);
  }

  byEmail(email: string): Promise<UserRecord | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  byInvitation(hash: string): Promise<UserRecord | undefined> {
    return this.db.selectFrom('users').selectAll().where('invitation_hash', '=', hash).executeTakeFirst();
  }

  /** Users in the order they joined; `email` narrows to addresses containing it. */
  list(offset: number, limit: number, email?: string): Promise<UserRecord[]> {
    let query = this.db.selectFrom('users').selectAll();
    if (email) query = query.where(emailContains(email));
    return query.orderBy('created_at').orderBy('id').offset(offset).limit(limit).execute();
  }

  async count(email?: string): Promise<number> {
    let query = this.db.selectFrom('users').select((eb) => eb.fn.countAll<string | number>().as('n'));
    if (email) query = query.where(emailContains(email));
    return Number((await query.executeTakeFirstOrThrow()).n);
  }

  /** Adds a user unless one has that email already (then false). */
  async insert(user: NewUser): Promise<boolean> {
    const result = await this.db
      .insertInto('users')
      .values(user)
      .onConflict((oc) => oc.column('email').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async update(id: string, changes: Partial<Omit<UserRecord, 'id'>>): Promise<boolean> {
    const result = await this.db.updateTable('users').set(changes).where('id', '=', id).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Changes a user under the team lock: `change` sees the user and how many active owners there
   * are, and returns the changes (or throws). Two admins demoting the last two owners at once
   * cannot both succeed.
   */
  async changeUnderTeamLock(
    id: string,
    change: (user: UserRecord, activeOwners: number) => Partial<Omit<UserRecord, 'id'>> | 'delete',
  ): Promise<UserRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await lockForUpdate(trx, TEAM_LOCK);
      const user = await trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
      if (!user) return undefined;
      const owners = await trx
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('role', '=', 'owner')
        .where('status', '=', 'active')
        .executeTakeFirstOrThrow();
      const changes = change(user, Number(owners.n));
      if (changes === 'delete') {
        await trx.deleteFrom('users').where('id', '=', id).execute();
        return user;
      }
      if (Object.keys(changes).length > 0) await trx.updateTable('users').set(changes).where('id', '=', id).execute();
      return { ...user, ...changes };
    });
  }
}

/** `email LIKE '%text%'` with the text taken literally (ESCAPE is spelled out: SQLite has no default). */
const emailContains = (text: string) =>
  sql<SqlBool>`email LIKE ${`%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} ESCAPE '\\'`;
