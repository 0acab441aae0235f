import { sql } from 'kysely';
import type { Db } from '../store/database';

/**
 * Sessions on `db`'s database holding a granted advisory lock whose first key is `space` (the
 * two-integer form, as server/store/instance-locks.ts takes them). pg_locks shows the whole
 * cluster's locks, other test files' databases included, hence the database filter.
 */
export async function advisoryLockHolders(db: Db, space: number): Promise<number[]> {
  const { rows } = await sql<{ pid: number }>`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = ${space} AND objsubid = 2
    AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`.execute(db);
  return rows.map((row) => row.pid);
}
