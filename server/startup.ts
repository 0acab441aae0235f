import { protectDatabaseFiles } from './data-dir';
import type { SecretBox } from './secret-box';
import { checkSecretsKey } from './secrets-key-check';
import { type Db, migrateToLatest, openSqlite } from './store/database';
import { MetaStore } from './store/meta-store';

/**
 * Opens the database in `dataDir`, brings its schema up to date and checks that `secrets` can
 * open what is stored. Any failure closes the database and stops the start.
 */
export async function openDatabase(dataDir: string, secrets: SecretBox): Promise<Db> {
  protectDatabaseFiles(dataDir);
  const db = openSqlite(dataDir);
  try {
    await migrateToLatest(db);
    await checkSecretsKey(new MetaStore(db), secrets);
    return db;
  } catch (error) {
    await db.destroy();
    throw error;
  }
}
