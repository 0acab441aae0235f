import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type CompiledQuery, Kysely, type LogEvent, Migrator, PostgresDialect } from 'kysely';
import type pg from 'pg';
import type { Logger } from '../logger';
import { migrationProvider } from './migrations';
import type { Database } from './schema';
import { countChanges, countCommits } from './cached-read';
import { postgresClient } from './postgres-client';
import { QueuedSqliteDialect } from './sqlite-driver';

export type Db = Kysely<Database>;

/**
 * The database's connections at a glance, for the metrics: how many are open, how many of them
 * are idle, and how many queries wait for one. SQLite has one connection, whose queue is the
 * server's own (see QueuedSqliteDialect).
 */
export interface ConnectionPoolStats {
  dialect: 'sqlite' | 'postgres';
  /** The most it opens. */
  max: number;
  total: number;
  idle: number;
  waiting: number;
}

const connectionPools = new WeakMap<Db, () => ConnectionPoolStats>();

/** The connections of a database this module opened, now. */
export function connectionPoolStats(db: Db): ConnectionPoolStats {
  const stats = connectionPools.get(db);
  if (!stats) throw new Error('A database not opened by openSqlite or openPostgres');
  return stats();
}

/** Called with each query a database runs: a test counts its reads. */
export type QueryObserver = (query: CompiledQuery) => void;

/** Kysely's log, when someone observes the queries. */
const logQueries = (observe?: QueryObserver) =>
  observe &&
  ((event: LogEvent) => {
    if (event.level === 'query') observe(event.query);
  });

/** Opens (creating if needed) the SQLite database in the data dir, in WAL mode. */
export function openSqlite(dataDir: string, observe?: QueryObserver): Db {
  const sqlite = new SQLite(path.join(dataDir, 'agent-console.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const dialect = new QueuedSqliteDialect(sqlite);
  const db = new Kysely<Database>({ dialect, log: logQueries(observe) });
  countChanges(db, sqlite);
  connectionPools.set(db, () => ({ dialect: 'sqlite', max: 1, ...dialect.connectionStats() }));
  return db;
}

/** A pool on the PostgreSQL database at `url` (postgres://…); nothing connects (or loads the client library) until the first query. */
export function openPostgres(url: string, log?: Logger, observe?: QueryObserver): Db {
  const max = 10;
  let opened: pg.Pool | undefined;
  let opening: Promise<pg.Pool> | undefined;
  const pool = () =>
    (opening ??= postgresClient().then((client) => {
      opened = new client.Pool({ connectionString: url, max });
      /*
       * An idle connection that breaks (PostgreSQL restarted, its session was ended) is an 'error' on
       * the pool, which with no listener would end the process; the pool drops it and connects anew. The
       * message only: the error never carries the URL, but nothing of the connection is logged.
       */
      opened.on('error', (error) => log?.warn({ reason: error.message }, 'a database connection broke; a new one is opened when needed'));
      // One that breaks while a query holds it errors on its client too, where no one else listens
      // (the pool stops listening while it is lent): the query's own failure says so, and the pool
      // drops the client when it is given back.
      opened.on('connect', (connection) => connection.on('error', () => {}));
      return opened;
    }));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: logQueries(observe) });
  countCommits(db, async (text) => (await pool()).query<{ at: string }>(text));
  connectionPools.set(db, () => ({
    dialect: 'postgres',
    max,
    total: opened?.totalCount ?? 0,
    idle: opened?.idleCount ?? 0,
    waiting: opened?.waitingCount ?? 0,
  }));
  return db;
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
