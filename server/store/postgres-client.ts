import type pg from 'pg';

let loaded: typeof pg | undefined;

/**
 * PostgreSQL's client library, loaded when a database on PostgreSQL is first used: a server on
 * SQLite, the default, never loads (or compiles) it.
 */
export async function postgresClient(): Promise<typeof pg> {
  loaded ??= (await import('pg')).default;
  return loaded;
}
