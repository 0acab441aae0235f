import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type Db, openSqlite } from './database';

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

it('queries asked during a transaction wait for it, then run in the order they were asked', async () => {
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

it('a statement prepared before a schema change answers with the columns after it', async () => {
  await sql`INSERT INTO t VALUES (7)`.execute(db);
  expect((await sql`SELECT * FROM t`.execute(db)).rows).toEqual([{ n: 7 }]);
  await sql`ALTER TABLE t RENAME COLUMN n TO m`.execute(db);
  await sql`ALTER TABLE t ADD COLUMN k TEXT`.execute(db);
  expect((await sql`SELECT * FROM t`.execute(db)).rows).toEqual([{ m: 7, k: null }]);
});
