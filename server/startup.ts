import { protectDatabaseFiles } from './data-dir';
import type { Logger } from './logger';
import type { SecretBox } from './secret-box';
import { checkSecretsKey } from './secrets-key-check';
import { type Db, migrateToLatest, openPostgres, openSqlite, type QueryObserver } from './store/database';
import { MetaStore } from './store/meta-store';

/**
 * Opens the database (PostgreSQL at `databaseUrl`, else SQLite in `dataDir`), brings its schema up
 * to date and checks that `secrets` can open what is stored. Any failure closes the database and
 * stops the start.
 */
export async function openDatabase(
  dataDir: string,
  secrets: SecretBox,
  databaseUrl?: string,
  log?: Logger,
  observe?: QueryObserver,
): Promise<Db> {
  if (!databaseUrl) protectDatabaseFiles(dataDir);
  const db = databaseUrl ? openPostgres(databaseUrl, log, observe) : openSqlite(dataDir, observe);
  try {
    await migrateToLatest(db);
    await checkSecretsKey(new MetaStore(db), secrets);
    return db;
  } catch (error) {
    await db.destroy();
    throw error;
  }
}
