import type SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, SqliteDialect } from 'kysely';

/** Prepared statements cached per connection; the server's queries are a few hundred distinct texts at most. */
const STATEMENT_CACHE_SIZE = 500;

/** A prepared statement; a reader's rows come as arrays, made into objects here (see `rowObject`). */
interface Prepared {
  statement: SQLite.Statement;
  /** A reader's column names, in order, as of its first run (see `columnsOf`). */
  columns?: string[];
}

/**
 * A row as the object better-sqlite3 would make (assigned column by column, so a later column of
 * the same name wins), built in JavaScript: better-sqlite3 builds each object through V8's C++
 * API, which takes longer.
 */
function rowObject(columns: string[], values: unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i];
  return row;
}

/**
 * Taken after a run, not at prepare: a connection that has not yet seen another's schema change
 * prepares with the old schema, and SQLite prepares the statement again (new names) when it runs.
 */
function columnsOf(prepared: Prepared): string[] {
  return (prepared.columns ??= prepared.statement.columns().map((column) => column.name));
}

/**
 * The one SQLite connection, with the statements it prepares cached: Kysely prepares each query
 * anew, and preparing was a good part of every API request's time. One statement runs at a time
 * (and none is iterated while another runs), so sharing them is safe. A cached statement's column
 * names hold while the schema version does: it is looked at before each query with a `*` (for
 * other connections' changes; looking takes a read transaction of its own, so not for a query
 * that spells its names out) and after each statement that is not a query (for
 * this connection's own, rolled back ones included). Spelled out, two names could still follow
 * another connection's schema change: an unaliased `rowid` (it takes the name of an INTEGER
 * PRIMARY KEY) and a column renamed only in case. The server's queries select neither.
 */
class SqliteConnection implements DatabaseConnection {
  readonly #statements = new Map<string, Prepared>();
  readonly #schemaVersion: SQLite.Statement;
  #schemaVersionSeen: unknown;

  constructor(private readonly sqlite: SQLite.Database) {
    this.#schemaVersion = sqlite.prepare('PRAGMA schema_version').pluck();
    this.#schemaVersionSeen = this.#schemaVersion.get();
  }

  /** Forgets the cached statements when the schema changed since last looked at. */
  #checkSchema(): void {
    const version = this.#schemaVersion.get();
    if (version !== this.#schemaVersionSeen) this.#statements.clear();
    this.#schemaVersionSeen = version;
  }

  #prepare(sql: string): Prepared {
    // A `*`'s names follow the schema (one in `count(*)` too, which costs only a look); see above for spelled-out ones.
    if (sql.includes('*')) this.#checkSchema();
    let prepared = this.#statements.get(sql);
    if (!prepared) {
      const statement = this.sqlite.prepare(sql);
      prepared = { statement: statement.reader ? statement.raw(true) : statement };
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.delete(this.#statements.keys().next().value!);
      this.#statements.set(sql, prepared);
    }
    return prepared;
  }

  executeQuery<R>({ sql, parameters }: CompiledQuery): Promise<QueryResult<R>> {
    const prepared = this.#prepare(sql);
    const { statement } = prepared;
    if (statement.reader) {
      const rows = statement.all(parameters) as unknown[][];
      const columns = columnsOf(prepared);
      return Promise.resolve({ rows: rows.map((values) => rowObject(columns, values) as R) });
    }
    const { changes, lastInsertRowid } = statement.run(parameters);
    this.#checkSchema();
    return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] });
  }

  async *streamQuery<R>({ sql, parameters }: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const prepared = this.#prepare(sql);
    if (!prepared.statement.reader) throw new Error('Only a query that returns rows can be streamed');
    for (const values of prepared.statement.iterate(parameters)) yield { rows: [rowObject(columnsOf(prepared), values as unknown[]) as R] };
  }
}

/**
 * Kysely's SQLite driver as a queue: whoever waits longest gets the connection next. Kysely's own
 * lets every waiting request retry its lock on each release (all but one wait again), which was
 * a good part of the server's time under concurrent requests.
 */
class QueuedSqliteDriver implements Driver {
  readonly #connection: SqliteConnection;
  #busy = false;
  readonly #waiting: (() => void)[] = [];

  constructor(private readonly sqlite: SQLite.Database) {
    this.#connection = new SqliteConnection(sqlite);
  }

  async init(): Promise<void> {}

  /** The one connection, idle or not, and the queries waiting for it. */
  stats(): { total: number; idle: number; waiting: number } {
    return { total: 1, idle: this.#busy ? 0 : 1, waiting: this.#waiting.length };
  }

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

/** Kysely's SQLite dialect (compiler, adapter, introspector) over the queued driver above. */
export class QueuedSqliteDialect extends SqliteDialect {
  #driver: QueuedSqliteDriver | undefined;

  constructor(private readonly sqlite: SQLite.Database) {
    super({ database: sqlite });
  }

  override createDriver(): Driver {
    return (this.#driver = new QueuedSqliteDriver(this.sqlite));
  }

  /** Its connection's: see QueuedSqliteDriver.stats (one idle connection before Kysely made the driver). */
  connectionStats(): { total: number; idle: number; waiting: number } {
    return this.#driver?.stats() ?? { total: 1, idle: 1, waiting: 0 };
  }
}
