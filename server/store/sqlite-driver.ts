import type SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, SqliteDialect } from 'kysely';

/** Prepared statements kept per connection; the server's queries are a few hundred distinct texts at most. */
const STATEMENT_CACHE_SIZE = 500;

const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

/** A prepared statement; a reader's rows come as arrays, made into objects here (see `rowObject`). */
interface Prepared {
  statement: SQLite.Statement;
  /** A reader's column names, in order. */
  columns?: string[];
}

/**
 * A row as the object better-sqlite3 would make (assigned column by column, so a later column of
 * the same name wins), built in JavaScript: better-sqlite3 builds each object through V8's C++
 * API, which took about twice as long for a page of 100 conversations.
 */
function rowObject(columns: string[], values: unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i];
  return row;
}

/**
 * The one SQLite connection, with the statements it prepares kept: Kysely prepares each query
 * anew, and preparing was a good part of every API request's time. One statement runs at a time
 * (and none is iterated while another runs), so sharing them is safe.
 */
class SqliteConnection implements DatabaseConnection {
  readonly #statements = new Map<string, Prepared>();

  constructor(private readonly sqlite: SQLite.Database) {}

  #prepare(sql: string): Prepared {
    let prepared = this.#statements.get(sql);
    if (!prepared) {
      const statement = this.sqlite.prepare(sql);
      const columns = statement.reader ? statement.columns().map((column) => column.name) : undefined;
      prepared = columns ? { statement: statement.raw(true), columns } : { statement };
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.delete(this.#statements.keys().next().value!);
      this.#statements.set(sql, prepared);
    }
    return prepared;
  }

  executeQuery<R>({ sql, parameters }: CompiledQuery): Promise<QueryResult<R>> {
    const { statement, columns } = this.#prepare(sql);
    if (columns)
      return Promise.resolve({ rows: (statement.all(parameters) as unknown[][]).map((values) => rowObject(columns, values) as R) });
    const { changes, lastInsertRowid } = statement.run(parameters);
    // A statement prepared before keeps the column names it had (SQLite prepares it again itself).
    if (SCHEMA_CHANGE.test(sql)) this.#statements.clear();
    return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] });
  }

  async *streamQuery<R>({ sql, parameters }: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { statement, columns } = this.#prepare(sql);
    if (!columns) throw new Error('Only a query that answers rows can be streamed');
    for (const values of statement.iterate(parameters)) yield { rows: [rowObject(columns, values as unknown[]) as R] };
  }
}

/**
 * Kysely's SQLite driver as a queue: whoever waits longest gets the connection next. Kysely's own
 * lets every waiting request retry its lock on each release (all but one wait again), which was
 * 15–20 % of the server's time under 20 concurrent requests.
 */
class QueuedSqliteDriver implements Driver {
  readonly #connection: SqliteConnection;
  #busy = false;
  readonly #waiting: (() => void)[] = [];

  constructor(private readonly sqlite: SQLite.Database) {
    this.#connection = new SqliteConnection(sqlite);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#busy) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#busy = true;
    return this.#connection;
  }

  async releaseConnection(): Promise<void> {
    const next = this.#waiting.shift();
    // Handed straight to the next in line: the connection stays busy.
    if (next) next();
    else this.#busy = false;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    this.sqlite.close();
  }
}

/**
 * A count that differs whenever the database may have changed since it was last read: rows this
 * connection changed (`total_changes()`, uncommitted and rolled-back ones included) and commits
 * of other connections (`data_version`). Reads kept while it stays the same are never stale.
 */
export function sqliteChangeCount(sqlite: SQLite.Database): () => string {
  const ownChanges = sqlite.prepare('SELECT total_changes()').pluck();
  const othersCommits = sqlite.prepare('PRAGMA data_version').pluck();
  // data_version costs a look at the WAL index; one look serves what runs before the next
  // microtask (the reads a request asks for at once). Taken earlier, it is still taken before each read.
  let others: number | undefined;
  return () => {
    if (others === undefined) {
      others = othersCommits.get() as number;
      queueMicrotask(() => (others = undefined));
    }
    return `${ownChanges.get() as number}:${others}`;
  };
}

/** Kysely's SQLite dialect (compiler, adapter, introspector) over the queued driver above. */
export class QueuedSqliteDialect extends SqliteDialect {
  constructor(private readonly sqlite: SQLite.Database) {
    super({ database: sqlite });
  }

  override createDriver(): Driver {
    return new QueuedSqliteDriver(this.sqlite);
  }
}
