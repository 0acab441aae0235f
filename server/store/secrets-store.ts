import type { Kysely } from 'kysely';
import type { Db } from './database';
import { lockForUpdate } from './dialect';
import { cachedWhileUnchanged } from './cached-read';
import type { Database } from './schema';

async function nextSeq(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('custom_secrets')
    .select((eb) => eb.fn.max('seq').as('last'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.last ?? 0) + 1;
}

function selectProviderTokens(db: Kysely<Database>, userId: string) {
  return db.selectFrom('provider_tokens').select(['provider', 'token', 'host', 'checked_at']).where('user_id', '=', userId);
}

async function customSecretExists(db: Kysely<Database>, userId: string, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('custom_secrets')
    .select('name')
    .where('user_id', '=', userId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row !== undefined;
}

async function setCustomSecret(db: Kysely<Database>, userId: string, name: string, changes: Partial<StoredCustomSecret>): Promise<void> {
  // Nothing to change (an edit saved as it was) is fine; an empty SET is not valid SQL.
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('custom_secrets').set(changes).where('user_id', '=', userId).where('name', '=', name).execute();
}

/** A provider's token as stored: the token sealed. */
export interface StoredProviderToken {
  provider: string;
  token: string;
  host: string | null;
  /** When the provider last accepted it (see `checked_at` in the schema). */
  checked_at: string | null;
}

/** A custom secret as stored: the value sealed. */
export interface StoredCustomSecret {
  name: string;
  value: string;
  description: string;
}

export type SecretUpdateOutcome = 'updated' | 'not-found' | 'name-taken';

/** Git provider tokens and custom secrets, one row each per user. */
export class SecretsStore {
  /** Settings and several other routes read the tokens (their hosts) on every request; they change seldom. */
  readonly #providerTokens: (userId: string) => Promise<readonly StoredProviderToken[]>;

  constructor(private readonly db: Db) {
    this.#providerTokens = cachedWhileUnchanged(db, (userId) => selectProviderTokens(db, userId).orderBy('provider').execute());
  }

  /** Frozen: the same list may be returned again. */
  listProviderTokens(userId: string): Promise<readonly StoredProviderToken[]> {
    return this.#providerTokens(userId);
  }

  /** Replaces the user's whole set of tokens with what `change` makes of the current set, in one transaction. */
  async updateProviderTokens(userId: string, change: (current: StoredProviderToken[]) => StoredProviderToken[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockForUpdate(trx, `provider_tokens:${userId}`);
      const current = await selectProviderTokens(trx, userId).execute();
      const tokens = change(current);
      await trx.deleteFrom('provider_tokens').where('user_id', '=', userId).execute();
      if (tokens.length === 0) return;
      const updated_at = new Date().toISOString();
      await trx
        .insertInto('provider_tokens')
        .values(tokens.map((token) => ({ user_id: userId, ...token, updated_at })))
        .execute();
    });
  }

  /**
   * Records a check of a provider's token: `checkedAt` when the provider accepted it, null when it
   * refused. Only while the stored token and host are still the ones checked (a save meanwhile has its own state).
   */
  async recordProviderCheck(
    userId: string,
    checked: Pick<StoredProviderToken, 'provider' | 'token' | 'host'>,
    checkedAt: string | null,
  ): Promise<void> {
    await this.db
      .updateTable('provider_tokens')
      .set({ checked_at: checkedAt })
      .where('user_id', '=', userId)
      .where('provider', '=', checked.provider)
      .where('token', '=', checked.token)
      .where('host', 'is not distinct from', checked.host)
      .execute();
  }

  listCustomSecrets(userId: string): Promise<StoredCustomSecret[]> {
    return this.db
      .selectFrom('custom_secrets')
      .select(['name', 'value', 'description'])
      .where('user_id', '=', userId)
      .orderBy('seq')
      .execute();
  }

  /** Adds a secret; `false` when one with that name exists. */
  async insertCustomSecret(userId: string, secret: StoredCustomSecret): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await lockForUpdate(trx, `custom_secrets:${userId}`);
      const result = await trx
        .insertInto('custom_secrets')
        .values({ user_id: userId, ...secret, created_at: new Date().toISOString(), seq: await nextSeq(trx, userId) })
        .onConflict((oc) => oc.columns(['user_id', 'name']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    });
  }

  /** Renames, describes or re-values a secret; a rename keeps its place in the list. */
  async updateCustomSecret(userId: string, name: string, changes: Partial<StoredCustomSecret>): Promise<SecretUpdateOutcome> {
    return this.db.transaction().execute(async (trx) => {
      await lockForUpdate(trx, `custom_secrets:${userId}`);
      if (!(await customSecretExists(trx, userId, name))) return 'not-found';
      if (changes.name !== undefined && changes.name !== name && (await customSecretExists(trx, userId, changes.name))) return 'name-taken';
      await setCustomSecret(trx, userId, name, changes);
      return 'updated';
    });
  }

  /** Sets each secret in `secrets` (adding the new ones); values left `undefined` keep theirs. */
  async upsertCustomSecrets(userId: string, secrets: { name: string; value?: string; description?: string }[]): Promise<void> {
    if (secrets.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      await lockForUpdate(trx, `custom_secrets:${userId}`);
      for (const { name, value, description } of secrets) {
        if (await customSecretExists(trx, userId, name)) {
          await setCustomSecret(trx, userId, name, {
            ...(value === undefined ? {} : { value }),
            ...(description === undefined ? {} : { description }),
          });
        } else if (value !== undefined) {
          await trx
            .insertInto('custom_secrets')
            .values({
              user_id: userId,
              name,
              value,
              description: description ?? '',
              created_at: new Date().toISOString(),
              seq: await nextSeq(trx, userId),
            })
            .execute();
        }
      }
    });
  }

  /** `false` when there was no such secret. */
  async deleteCustomSecret(userId: string, name: string): Promise<boolean> {
    const result = await this.db.deleteFrom('custom_secrets').where('user_id', '=', userId).where('name', '=', name).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Every token and custom secret of a user. */
  async deleteAll(userId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('provider_tokens').where('user_id', '=', userId).execute();
      await trx.deleteFrom('custom_secrets').where('user_id', '=', userId).execute();
    });
  }
}
