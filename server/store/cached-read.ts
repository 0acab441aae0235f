import type SQLite from 'better-sqlite3';
import type { Db } from './database';

/*
 * Cached reads on the database's change counters (SQLite's, PostgreSQL's snapshot): for what most
 * requests read and writes seldom change (the settings document, the provider tokens, the sandbox
 * list). See docs/performance.md.
 */

/** The change count of each database (see countChanges and countCommits). */
const changeCounts = new WeakMap<Db, () => Promise<string | undefined>>();

/**
 * Counts the changes of `db`, the Kysely database over `sqlite`, its only connection: a count that
 * differs whenever the database may have changed since it was last taken. Rows this connection
 * changed (`total_changes()`, uncommitted and rolled-back ones included) and commits of other
 * connections (`data_version`). `undefined` while this connection is in a transaction:
 * `data_version` would then report that transaction's snapshot (and would take one early for a
 * transaction begun but not yet reading), so a read then waits its turn for the connection.
 *
 * The count is taken in the event loop's next check phase (setImmediate), once for everyone who
 * asked since the last one: by then every request that asked has been received, so the count is
 * as fresh for each of them as one taken when it asked. `data_version` takes and drops a lock on
 * the WAL index (two system calls); one per turn of the loop serves all the requests read in it.
 */
export function countChanges(db: Db, sqlite: SQLite.Database): void {
  const ownChanges = sqlite.prepare('SELECT total_changes()').pluck();
  const othersCommits = sqlite.prepare('PRAGMA data_version').pluck();
  const look = () => (sqlite.inTransaction ? undefined : `${ownChanges.get() as number}:${othersCommits.get() as number}`);
  changeCounts.set(db, oncePerTurn(look));
}

/**
 * Counts the commits that `db`, a pool on PostgreSQL, may see, by the text of the current
 * snapshot (`xmin:xmax:in-progress ids`): it changes when a transaction that wrote (any
 * instance's, or another database's of the cluster: then a read again, never a stale one) takes
 * an id, and again when its commit becomes visible, which is what a read can see. (The
 * write-ahead log's position would move at the commit's record, before other sessions see it.)
 * One query per turn of the event loop, sent when the turn ends: by then everyone who asked in it
 * has asked, so a commit any of them saw is in the count.
 */
export function countCommits(db: Db, query: (text: string) => Promise<{ rows: { at: string }[] }>): void {
  changeCounts.set(
    db,
    oncePerTurn(() => query('SELECT pg_current_snapshot()::text AS at').then(({ rows }) => rows[0]?.at)),
  );
}

/**
 * `look` taken in the event loop's next check phase (setImmediate), once for everyone who asked
 * since the last one: by then every request that asked has been received.
 */
function oncePerTurn(look: () => string | undefined | Promise<string | undefined>): () => Promise<string | undefined> {
  let next: Promise<string | undefined> | undefined;
  return () =>
    (next ??= new Promise((resolve, reject) =>
      setImmediate(() => {
        next = undefined;
        try {
          Promise.resolve(look()).then(resolve, reject);
        } catch (error) {
          reject(error as Error);
        }
      }),
    ));
}

/** Whether reads of `db` are cached: a transaction's are not. */
export const readsAreCached = (db: Db): boolean => changeCounts.has(db);

/** `value` and, for a list, each of its rows frozen: a cached read may be returned again, so nobody may change it. */
function frozen<T>(value: T): T {
  if (Array.isArray(value)) for (const row of value) Object.freeze(row);
  return typeof value === 'object' && value !== null ? Object.freeze(value) : value;
}

/** How many keys a cached read keeps at once: a request reads a few (a user's settings and the team's); many users read in turn. */
const KEYS_KEPT = 256;

/**
 * `read`, cached for each key while the database's change count (see countChanges) stays what it
 * was before the reads (the oldest key goes once KEYS_KEPT are kept); in a transaction, every call
 * reads. What it returns is frozen.
 */
export function cachedWhileUnchanged<T>(db: Db, read: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const changeCount = changeCounts.get(db);
  // A transaction has no count of its own: its reads are frozen too, so they return alike.
  if (!changeCount) return (key) => read(key).then(frozen);
  let cached = { at: '', values: new Map<string, Promise<T>>() };
  return async (key) => {
    // Counted before reading: a write between the count and the read only makes the next call read again.
    const at = await changeCount();
    // In a transaction of this connection's: read after it, waiting its turn, and cache nothing.
    if (at === undefined) return read(key).then(frozen);
    if (cached.at !== at) cached = { at, values: new Map() };
    const kept = cached.values.get(key);
    if (kept) return kept;
    const { values } = cached;
    const value = read(key).then(frozen);
    values.set(key, value);
    if (values.size > KEYS_KEPT) values.delete(values.keys().next().value!);
    value.catch(() => {
      if (values.get(key) === value) values.delete(key);
    });
    return value;
  };
}
