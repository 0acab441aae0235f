import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { DATABASE_FILE, loadOrCreateKeyFile } from '../data-dir';
import type { SecretBox } from '../secret-box';
import { checkSecretsKey } from '../secrets-key-check';
import { type Db, migrateToLatest, openPostgres, openSqlite } from './database';
import { MetaStore } from './meta-store';
import type { Database } from './schema';

/** Parents before children (events reference conversations). */
const TABLES: (keyof Database)[] = [
  'server_meta',
  'users',
  'api_keys',
  'llm_calls',
  'audit_log',
  'sandbox_runs',
  'conversation_starts',
  'browser_sessions',
  'user_settings',
  'provider_tokens',
  'custom_secrets',
  'sandboxes',
  'app_conversations',
  'start_tasks',
  'conversation_events',
];

/** Columns only SQLite has (what PostgreSQL computes in its queries instead): not copied. */
const SQLITE_ONLY: Partial<Record<keyof Database, string[]>> = { app_conversations: ['stored_fields_json'] };

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for the widest table. */
const BATCH = 500;

export class CopyRefused extends Error {}

export type CopyCounts = Partial<Record<keyof Database, number>>;

/** Rows a migrated database starts with: the owner (migration 0016), whom the copy replaces. */
const SEEDED: Partial<Record<keyof Database, number>> = { users: 1 };

async function rowCount(db: Db, table: keyof Database): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Copies one table in batches, in the source's rowid order (events keep their seq, so their order). */
async function copyTable(from: Db, to: Db, table: keyof Database): Promise<number> {
  let copied = 0;
  for (let offset = 0; ; offset += BATCH) {
    const rows = await sql<
      Record<string, unknown>
    >`SELECT * FROM ${sql.table(table)} ORDER BY rowid LIMIT ${BATCH} OFFSET ${offset}`.execute(from);
    if (rows.rows.length === 0) return copied;
    for (const row of rows.rows) for (const column of SQLITE_ONLY[table] ?? []) delete row[column];
    await to.insertInto(table).values(rows.rows).execute();
    copied += rows.rows.length;
  }
}

/**
 * Copies the SQLite database of `dataDir` into the PostgreSQL database at `url`, row for row:
 * sealed secrets stay sealed, so instances on PostgreSQL need the same SECRETS_KEY (`secrets`,
 * checked first). Refused when the target already holds data, so a second run changes nothing.
 */
export async function copySqliteToPostgres(dataDir: string, url: string, secrets: SecretBox): Promise<CopyCounts> {
  if (!fs.existsSync(path.join(dataDir, DATABASE_FILE))) throw new CopyRefused(`No ${DATABASE_FILE} in ${dataDir}: nothing to copy.`);
  const from = openSqlite(dataDir);
  const to = openPostgres(url);
  try {
    // Both at the same schema: the copy is column for column.
    await migrateToLatest(from);
    await checkSecretsKey(new MetaStore(from), secrets);
    await migrateToLatest(to);
    return await to.transaction().execute(async (trx) => {
      // Two runs at once: the second waits here, then finds the first one's rows.
      await sql`LOCK TABLE server_meta IN EXCLUSIVE MODE`.execute(trx);
      for (const table of TABLES) {
        if ((await rowCount(trx, table)) > (SEEDED[table] ?? 0)) {
          throw new CopyRefused(`The PostgreSQL database already holds data (table ${table}): copy into an empty database only.`);
        }
      }
      const counts: CopyCounts = {};
      await trx.deleteFrom('users').execute();
      for (const table of TABLES) counts[table] = await copyTable(from, trx, table);
      // The copied sandboxes run on this data dir's host (their processes, containers and homes are
      // there), so they are the instance's that starts on it (DATA_DIR/instance-id), whichever starts
      // first; so are starts it left unfinished. A single SQLite server records no owner.
      const owner = loadOrCreateKeyFile(dataDir, 'instance-id');
      await trx.updateTable('sandboxes').set({ owner_instance: owner }).where('owner_instance', 'is', null).execute();
      await trx.updateTable('start_tasks').set({ owner_instance: owner }).where('owner_instance', 'is', null).execute();
      // The SQLite server that ran the unfinished starts has stopped: nothing goes on with them.
      await trx
        .updateTable('start_tasks')
        .set({
          status: 'ERROR',
          detail: 'Interrupted: copied to PostgreSQL while unfinished; start it again',
          updated_at: new Date().toISOString(),
        })
        .where('status', 'not in', ['READY', 'ERROR'])
        .execute();
      // New events, keys, LLM calls and usage rows are numbered after the copied ones.
      await sql`SELECT setval(pg_get_serial_sequence('conversation_events', 'seq'), COALESCE(MAX(seq), 0) + 1, false) FROM conversation_events`.execute(
        trx,
      );
      for (const table of ['api_keys', 'llm_calls', 'sandbox_runs', 'conversation_starts'])
        await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), COALESCE(MAX(id), 0) + 1, false) FROM ${sql.table(table)}`.execute(
          trx,
        );
      return counts;
    });
  } finally {
    await from.destroy();
    await to.destroy();
  }
}
