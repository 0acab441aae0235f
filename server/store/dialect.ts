import { PostgresAdapter, type QueryExecutorProvider, sql } from 'kysely';

/** Whether `db` speaks to PostgreSQL (else SQLite): the few queries and migrations whose SQL differs ask this. */
export const isPostgres = (db: QueryExecutorProvider): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Serialises read-modify-write transactions on `key` until the transaction ends. PostgreSQL runs
 * transactions side by side (from several instances, too) and READ COMMITTED would let two of them
 * read the same row and lose one's write; an advisory lock also covers a row not there yet, which
 * SELECT … FOR UPDATE cannot. SQLite needs nothing: Kysely runs its transactions one at a time.
 */
export async function lockForUpdate(trx: QueryExecutorProvider, key: string): Promise<void> {
  if (isPostgres(trx)) await sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
}
