import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cachedWhileUnchanged } from './cached-read';
import { migrateToLatest } from './database';
import { onOwnSqlite } from '../testing/databases';
import { MetaStore } from './meta-store';
import { SettingsStore } from './settings-store';

/*
 * Cached reads (see cached-read.ts): a read stands while SQLite's change counters do. The stores
 * that cache (settings, provider tokens, the sandbox list) are tested on both databases in
 * stores.test.ts: every write is seen at once, from this connection or another.
 */

describe('cached reads on sqlite', () => {
  it('one read serves the asks of a turn and the asks after it while nothing changes; in a transaction every ask reads', async () => {
    await onOwnSqlite(async (db) => {
      await migrateToLatest(db);
      let reads = 0;
      const cached = cachedWhileUnchanged(db, async (key) => `${key}:${++reads}`);
      expect(await Promise.all([cached('a'), cached('a'), cached('a')])).toEqual(['a:1', 'a:1', 'a:1']);
      expect(await cached('a')).toBe('a:1');
      expect(await cached('b')).toBe('b:2');
      await db.transaction().execute(async (trx) => {
        await new MetaStore(trx).set('k', 'v');
        // Still open when the count would be taken: nothing to cache by.
        expect(await Promise.all([cached('b'), cached('b')])).toEqual(['b:3', 'b:4']);
      });
      expect(await cached('b')).toBe('b:5');
      expect(await cached('b')).toBe('b:5');
    });
  });

  it("count the changes when the loop's turn ends: a commit from another process after a read was asked, in the same turn, is seen by it", async () => {
    await onOwnSqlite(async (db, dir) => {
      // Another connection, as another process's would be: its statements run at once, with no turn of the event loop.
      const another = new SQLite(path.join(dir, 'agent-console.db'));
      try {
        await migrateToLatest(db);
        const settings = new SettingsStore(db);
        await settings.update('default', () => '{"a":1}');
        expect(await settings.load('default')).toBe('{"a":1}');
        const write = another.prepare("UPDATE user_settings SET document = ? WHERE user_id = 'default'");
        const asked = settings.load('default');
        write.run('{"a":2}');
        const askedAfter = settings.load('default');
        // Both were asked before the count was taken, and one count serves both.
        expect(await Promise.all([asked, askedAfter])).toEqual(['{"a":2}', '{"a":2}']);
        write.run('{"a":3}');
        expect(await settings.load('default')).toBe('{"a":3}');
        expect(await settings.load('default')).toBe('{"a":3}');
      } finally {
        another.close();
      }
    });
  });
});
