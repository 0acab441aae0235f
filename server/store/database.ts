import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { Logger } from '../logger';
import { migrationProvider } from './migrations';
import type { Database } from './schema';

export type Db = Kysely<Database>;

/** Prepared statements kept per connection; the server's queries are a few hundred distinct texts at most. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The connection as Kysely sees it, with the statements it prepares kept: Kysely prepares each
 * query anew, and preparing was a good part of every API request's time. Kysely runs one
 * statement at a time on the connection (and never iterates one here), so sharing them is safe.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (sql) => {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/** Opens (creating if needed) the SQLite database in the data dir, in WAL mode. */
export function openSqlite(dataDir: string): Db {
  const sqlite = new SQLite(path.join(dataDir, 'agent-console.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}

/** A pool on the PostgreSQL database at `url` (postgres://…); nothing connects until the first query. */
export function openPostgres(url: string, log?: Logger): Db {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  /*
   * An idle connection that breaks (PostgreSQL restarted, its session was ended) is an 'error' on
   * the pool, which would end the process unheard; the pool drops it and connects anew. The
   * message only: the error never carries the URL, but nothing of the connection is logged.
   */
  pool.on('error', (error) => log?.warn({ reason: error.message }, 'a database connection broke; a new one is opened when needed'));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** Brings the schema up to date; a failed migration stops the server before it listens. */
export async function migrateToLatest(db: Db): Promise<void> {
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
