import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openSqlite } from './database';
import { QueuedSqliteDialect } from './sqlite-driver';

/* The queued SQLite driver: one statement or transaction at a time, in the order asked; rows as better-sqlite3 makes them. */

let dir: string;
let db: Db;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-driver-'));
  db = openSqlite(dir);
  await sql`CREATE TABLE t (n INTEGER)`.execute(db);
});
afterEach(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('queries asked during a transaction wait for it, then run after it', async () => {
  let finish!: () => void;
  const held = new Promise<void>((resolve) => (finish = resolve));
  let entered!: () => void;
  const inTransaction = new Promise<void>((resolve) => (entered = resolve));
  const transaction = db.transaction().execute(async (trx) => {
    await sql`INSERT INTO t VALUES (1)`.execute(trx);
    entered();
    await held;
    throw new Error('rolled back');
  });
  await inTransaction;
  const order: number[] = [];
  const reads = [0, 1, 2, 3].map(async (i) => {
    const { rows } = await sql<{ count: number }>`SELECT count(*) AS count FROM t`.execute(db);
    order.push(i);
    return rows[0]!.count;
  });
  const write = sql`INSERT INTO t VALUES (2)`.execute(db);
  finish();
  await expect(transaction).rejects.toThrow('rolled back');
  // None saw the rolled-back row: they ran after the transaction, not inside it.
  expect(await Promise.all(reads)).toEqual([0, 0, 0, 0]);
  expect(order).toEqual([0, 1, 2, 3]);
  expect(Number((await write).numAffectedRows)).toBe(1);
  expect((await sql<{ n: number }>`SELECT n FROM t`.execute(db)).rows).toEqual([{ n: 2 }]);
});

it('the connection goes to whoever has waited longest, not to one asking just as it is released', async () => {
  const sqlite = new SQLite(path.join(dir, 'agent-console.db'));
  const driver = new QueuedSqliteDialect(sqlite).createDriver();
  await driver.init();
  try {
    const order: string[] = [];
    const takeTurn = async (name: string) => {
      const connection = await driver.acquireConnection();
      order.push(name);
      await driver.releaseConnection(connection);
    };
    const held = await driver.acquireConnection();
    const waiting = ['a', 'b', 'c'].map(takeTurn);
    void driver.releaseConnection(held);
    // Asked in the same turn as the release, before the longest waiter has run again.
    await Promise.all([...waiting, takeTurn('late')]);
    expect(order).toEqual(['a', 'b', 'c', 'late']);
  } finally {
    await driver.destroy();
  }
});

it('rows are the objects better-sqlite3 makes: column order, a later column of the same name wins, __proto__ as it sets it', async () => {
  await sql`INSERT INTO t VALUES (7)`.execute(db);
  const direct = new SQLite(path.join(dir, 'agent-console.db'));
  try {
    for (const query of ['SELECT 1 AS a, 2 AS b, 3 AS a', 'SELECT n, n * 2, NULL AS z FROM t', 'SELECT 1 AS "__proto__", 2 AS b']) {
      const { rows } = await sql.raw(query).execute(db);
      const expected = direct.prepare(query).all() as object[];
      expect(rows).toEqual(expected);
      expect(rows.map((row) => [Object.keys(row as object), Object.getPrototypeOf(row)])).toEqual(
        expected.map((row) => [Object.keys(row), Object.getPrototypeOf(row)]),
      );
    }
  } finally {
    direct.close();
  }
});

it('a statement prepared before a schema change returns the columns after it', async () => {
  await sql`INSERT INTO t VALUES (7)`.execute(db);
  expect((await sql`SELECT * FROM t`.execute(db)).rows).toEqual([{ n: 7 }]);
  await sql`ALTER TABLE t RENAME COLUMN n TO m`.execute(db);
  await sql`ALTER TABLE t ADD COLUMN k TEXT`.execute(db);
  expect((await sql`SELECT * FROM t`.execute(db)).rows).toEqual([{ m: 7, k: null }]);
});

describe('a cached statement returns the column names the schema has now', () => {
  const rows = async (query: string) => (await sql.raw(query).execute(db)).rows;

  it('after another connection renames a column, rebuilds a table or puts another in its place', async () => {
    await sql`INSERT INTO t VALUES (7)`.execute(db);
    await sql`CREATE TABLE u (a INTEGER, b TEXT)`.execute(db);
    await sql`INSERT INTO u VALUES (1, 'x')`.execute(db);
    expect(await rows('SELECT * FROM t')).toEqual([{ n: 7 }]);
    expect(await rows('SELECT * FROM u')).toEqual([{ a: 1, b: 'x' }]);
    expect(await rows('SELECT b, a FROM u')).toEqual([{ b: 'x', a: 1 }]);
    const other = new SQLite(path.join(dir, 'agent-console.db'));
    try {
      other.exec('ALTER TABLE t RENAME COLUMN n TO m');
      expect(await rows('SELECT * FROM t')).toEqual([{ m: 7 }]);
      other.exec("DROP TABLE u; CREATE TABLE u (b TEXT, a INTEGER); INSERT INTO u VALUES ('y', 2)");
      expect(await rows('SELECT * FROM u')).toEqual([{ b: 'y', a: 2 }]);
      // Names spelled out stay; SQLite prepares the statement again for the new table.
      expect(await rows('SELECT b, a FROM u')).toEqual([{ b: 'y', a: 2 }]);
      other.exec("ALTER TABLE t RENAME TO t_old; CREATE TABLE t (k TEXT); INSERT INTO t VALUES ('z')");
      expect(await rows('SELECT * FROM t')).toEqual([{ k: 'z' }]);
      // First asked after the change: this connection prepares it with the schema it knew.
      other.exec('ALTER TABLE t_old RENAME COLUMN m TO q');
      expect(await rows('SELECT * FROM t_old')).toEqual([{ q: 7 }]);
    } finally {
      other.close();
    }
  });

  it('after a transaction that changed the schema rolls back', async () => {
    await sql`INSERT INTO t VALUES (7)`.execute(db);
    await expect(
      db.transaction().execute(async (trx) => {
        expect((await sql`SELECT * FROM t`.execute(trx)).rows).toEqual([{ n: 7 }]);
        await sql`ALTER TABLE t RENAME COLUMN n TO m`.execute(trx);
        expect((await sql`SELECT * FROM t`.execute(trx)).rows).toEqual([{ m: 7 }]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await rows('SELECT * FROM t')).toEqual([{ n: 7 }]);
  });
});
