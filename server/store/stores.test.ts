import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, Migrator, sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conversationRecord, sandboxRecord, startTaskRecord } from '../testing/conversation-records';
import { databasesUnderTest, freshPostgresDatabase, onlyPostgres, onOwnSqlite } from '../testing/databases';
import { ConversationsStore, type ConversationRecord } from './conversations-store';
import type { EventFilter } from '../../src/contract/events';
import { type Db, migrateToLatest, openPostgres, openSqlite } from './database';
import { isPostgres } from './dialect';
import { migrationProvider } from './migrations';
import { EventsStore, lockConversationEvents, type NewEvent } from './events-store';
import { MetaStore } from './meta-store';
import type { Database } from './schema';
import { SandboxesStore } from './sandboxes-store';
import { SecretsStore } from './secrets-store';
import { SettingsStore } from './settings-store';
import { QueuedSqliteDialect } from './sqlite-driver';
import { StartTasksStore } from './start-tasks-store';
import { EVERY_USER } from './user-scope';

/*
 * The stores straight on each database: what SQL differs between SQLite and PostgreSQL (title
 * search, integer and null comparisons, upserts, `returning`, concurrent read-modify-writes) gives the same results.
 */

/** Conversation c00n, with title `title`, created n minutes into 2026. */
const conversation = (n: number, title: string): ConversationRecord => {
  const at = new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString();
  return conversationRecord({ id: `c${String(n).padStart(3, '0')}`, sandbox_id: `s${n % 2}`, title, created_at: at, updated_at: at });
};

const sandboxAt = (id: string, created_at: string) => sandboxRecord({ id, created_at, started_at: created_at });

describe.each(databasesUnderTest())('stores on %s', (database) => {
  let db: Db;
  /** Another connection to the same database (another process, or another instance). */
  let openAnother: () => Db;
  let cleanUp: () => Promise<void>;
  beforeEach(async () => {
    if (database === 'postgres') {
      const { url, drop } = await freshPostgresDatabase();
      db = openPostgres(url);
      openAnother = () => openPostgres(url);
      cleanUp = drop;
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-store-'));
      db = openSqlite(dir);
      openAnother = () => openSqlite(dir);
      cleanUp = async () => fs.rmSync(dir, { recursive: true, force: true });
    }
    await migrateToLatest(db);
  });
  afterEach(async () => {
    await db.destroy();
    await cleanUp();
  });

  it('speaks the dialect it was opened with', () => {
    expect(isPostgres(db)).toBe(database === 'postgres');
  });

  it('conversations: title search in any case with % and _ taken literally, title order, counts as numbers', async () => {
    const store = new ConversationsStore(db);
    const titles = ['Fix the Build', 'fix tests', 'Deploy 100% done', 'snake_case names', 'Zebra', 'apple'];
    for (const [n, title] of titles.entries()) await store.insert(conversation(n, title));
    const found = async (term: string) =>
      (await store.search('default', { archived: false, title__contains: term }, 'TITLE', undefined, 50)).rows.map((r) => r.sort_value);

    expect(await found('FIX')).toEqual(['Fix the Build', 'fix tests']);
    expect(await found('fi')).toEqual(['Fix the Build', 'fix tests']); // shorter than a trigram
    expect(await found('0%')).toEqual(['Deploy 100% done']);
    expect(await found('e_c')).toEqual(['snake_case names']);
    expect(await found('%')).toEqual(['Deploy 100% done']);
    expect(await found('"x" OR 1')).toEqual([]);
    expect(await store.count('default', { archived: false, title__contains: 'fix' })).toBe(2);
    expect(await store.countUsingSandbox(EVERY_USER, 's0')).toBe(3);
    expect(await store.countUsingSandbox('someone else', 's0')).toBe(0);

    // Code-point order (upper case first) and keyset pages that neither skip nor repeat.
    const firstPage = await store.search('default', { archived: false }, 'TITLE', undefined, 3);
    expect(firstPage.rows.map((r) => r.sort_value)).toEqual(['Deploy 100% done', 'Fix the Build', 'Zebra']);
    expect(firstPage.more).toBe(true);
    const last = firstPage.rows.at(-1)!;
    const secondPage = await store.search('default', { archived: false }, 'TITLE', { value: last.sort_value, id: last.id }, 3);
    expect(secondPage.rows.map((r) => r.sort_value)).toEqual(['apple', 'fix tests', 'snake_case names']);
    expect(secondPage.more).toBe(false);

    expect(await store.update('default', 'c000', { title: 'Renamed', archived: 1 })).toBe(true);
    expect(await found('build')).toEqual([]);
    expect(await store.count('default', { archived: true })).toBe(1);
    expect(await store.delete('default', 'c000')).toBe(true);
    expect(await store.delete('default', 'c000')).toBe(false);
    expect(await store.get('default', 'c000')).toBeUndefined();
  });

  it('conversations: a title search in creation order pages as sorting every match would (ties in a millisecond, rows written out of order)', async () => {
    const store = new ConversationsStore(db);
    const base = Date.UTC(2026, 0, 1);
    // Half share 40 seconds (seven or eight a second), half have one of their own; written shuffled.
    const records = Array.from({ length: 300 }, (_, i) => {
      const n = (i * 37) % 300;
      const at = new Date(n % 2 === 0 ? base + (n % 40) * 1000 : base + n * 1000 + 500).toISOString();
      return conversationRecord({
        id: `c${String((n * 7) % 300).padStart(3, '0')}`,
        user_id: n % 11 === 0 ? 'someone-else' : 'default',
        title: `${n % 3 === 0 ? 'QuokKa' : 'Wombat'} ${n}`,
        archived: n % 13 === 0 ? 1 : 0,
        created_at: at,
        updated_at: at,
      });
    });
    for (const record of records) await store.insert(record);
    const byCreation = (a: ConversationRecord, b: ConversationRecord) =>
      a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    const matching = records.filter((r) => r.user_id === 'default' && r.archived === 0 && r.title.startsWith('QuokKa')).sort(byCreation);

    const before = new Date(base + 150_000).toISOString();
    for (const createdBefore of [undefined, before])
      for (const sort of ['CREATED_AT', 'CREATED_AT_DESC'] as const) {
        const kept = matching.filter((r) => createdBefore === undefined || r.created_at < createdBefore);
        const expected = (sort === 'CREATED_AT' ? kept : [...kept].reverse()).map((r) => r.id);
        for (const limit of [1, 3, 7, 100]) {
          const paged: string[] = [];
          let cursor: { value: string; id: string } | undefined;
          for (;;) {
            const filter = { archived: false, title__contains: 'quokka', created_at__lt: createdBefore };
            const page = await store.search('default', filter, sort, cursor, limit);
            paged.push(...page.rows.map((r) => r.id));
            if (!page.more) break;
            const last = page.rows.at(-1)!;
            cursor = { value: last.sort_value, id: last.id };
          }
          expect(paged, `${sort}, ${limit} a page, created before ${createdBefore}`).toEqual(expected);
        }
      }
    // A cursor is the client's to send: times no rowid holds are compared as text, as always.
    for (const [value, expected] of [
      ['9999-12-31T23:59:59.999Z', matching.length],
      ['+275760-09-13T00:00:00.000Z', 0],
      ['not a time', matching.length],
    ] as const) {
      const { rows } = await store.search(
        'default',
        { archived: false, title__contains: 'quokka' },
        'CREATED_AT_DESC',
        { value, id: '' },
        100,
      );
      expect(rows, value).toHaveLength(expected);
    }
    const [first] = (await store.search('default', { archived: false, title__contains: 'quokka' }, 'CREATED_AT_DESC', undefined, 1)).rows;
    expect(JSON.parse(first!.fields)).toMatchObject({ id: first!.id, title: expect.stringMatching(/^QuokKa/) });
  });

  it('conversations: a search hit carries its stored fields as the JSON object a response item has them', async () => {
    const store = new ConversationsStore(db);
    const title = 'Quotes " and \\ backslashes, tabs\t, 🦘 and ünïcode';
    await store.insert({
      ...conversation(1, title),
      selected_repository: 'octo/hello',
      pr_number: '[3,14]',
      skills: '["docs","testing"]',
      archived: 1,
      metrics: '{"accumulated_cost":1}',
    });
    const { rows } = await store.search('default', { archived: true }, 'CREATED_AT_DESC', undefined, 10);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: 'c001',
      sandbox_id: 's1',
      metrics: '{"accumulated_cost":1}',
      sort_value: '2026-01-01T00:01:00.000Z',
    });
    expect(JSON.parse(rows[0]!.fields)).toStrictEqual({
      id: 'c001',
      created_by_user_id: 'default',
      sandbox_id: 's1',
      selected_repository: 'octo/hello',
      selected_branch: null,
      git_provider: null,
      title,
      trigger: null,
      pr_number: [3, 14],
      llm_model: null,
      parent_conversation_id: null,
      sub_conversation_ids: [],
      created_at: '2026-01-01T00:01:00.000Z',
      updated_at: '2026-01-01T00:01:00.000Z',
      archived: true,
      skills: ['docs', 'testing'],
    });

    // What a change of the row changes, its fields say at once; a metrics update leaves them.
    await store.update('default', 'c001', { title: 'Renamed', archived: 0, updated_at: '2026-02-01T00:00:00.000Z' });
    await store.update('default', 'c001', { metrics: '{"accumulated_cost":2}' });
    const [renamed] = (await store.search('default', { archived: false }, 'CREATED_AT_DESC', undefined, 10)).rows;
    expect(renamed!.metrics).toBe('{"accumulated_cost":2}');
    expect(JSON.parse(renamed!.fields)).toMatchObject({ title: 'Renamed', archived: false, updated_at: '2026-02-01T00:00:00.000Z' });
  });

  it('events: stored once each, seq as numbers in arrival order, pages and counts', async () => {
    await new ConversationsStore(db).insert(conversation(1, 'events'));
    const store = new EventsStore(db);
    const event = (id: string, second: number): NewEvent => ({
      user_id: 'default',
      conversation_id: 'c001',
      event_id: id,
      kind: 'MessageEvent',
      source: 'user',
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
      body: JSON.stringify({ id }),
    });
    const first = await store.insertNew([event('a', 2), event('b', 1)]);
    expect(first.map((e) => e.event_id)).toEqual(['a', 'b']);
    expect(first.every((e) => typeof e.seq === 'number')).toBe(true);
    const again = await store.insertNew([event('b', 1), event('c', 3)]);
    expect(again.map((e) => e.event_id)).toEqual(['c']);

    expect((await store.after(EVERY_USER, 'c001', 0, 10)).map((e) => e.event_id)).toEqual(['a', 'b', 'c']);
    expect((await store.after(EVERY_USER, 'c001', first[0]!.seq, 10)).map((e) => e.event_id)).toEqual(['b', 'c']);
    expect(await store.seqOf(EVERY_USER, 'c001', 'c')).toBe(again[0]!.seq);
    expect(await store.seqOf(EVERY_USER, 'c001', 'nope')).toBeUndefined();

    const byTime = await store.search('default', {}, false, undefined, 2);
    const eventIds = (rows: { body: string }[]) => rows.map((e) => (JSON.parse(e.body) as { id: string }).id);
    expect(eventIds(byTime.rows)).toEqual(['b', 'a']);
    expect(byTime.more).toBe(true);
    const rest = await store.search('default', {}, false, { timestamp: byTime.rows[1]!.timestamp, seq: byTime.rows[1]!.seq }, 2);
    expect(eventIds(rest.rows)).toEqual(['c']);
    expect(await store.count('default', { conversation_id__eq: 'c001' })).toBe(3);

    // A conversation's events go with it.
    await new ConversationsStore(db).delete('default', 'c001');
    expect(await store.count('default', {})).toBe(0);
  });

  it('start tasks and the sandbox registry: nulls, integers, unfinished tasks', async () => {
    const tasks = new StartTasksStore(db);
    const task = (id: string, status: string, minute: number, owner: string | null = 'me') => {
      const at = new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
      return startTaskRecord({ id, status, created_at: at, updated_at: at, owner_instance: owner });
    };
    await tasks.insert(task('t1', 'READY', 1));
    await tasks.insert(task('t2', 'WAITING_FOR_SANDBOX', 2));
    await tasks.insert(task('t3', 'WORKING', 3, 'another'));
    await tasks.insert(task('t4', 'WORKING', 4, null));
    // Its own and those of no instance; another instance's go on.
    expect((await tasks.unfinished('me')).map((t) => t.id).sort()).toEqual(['t2', 't4']);
    await tasks.update(EVERY_USER, 't2', { status: 'ERROR', detail: 'interrupted' });
    expect(await tasks.update(EVERY_USER, 't4', { status: 'ERROR', detail: 'interrupted' })).toBe(true);
    // Ended (here by another instance), a task stays so whatever its runner saves after.
    expect(await tasks.update(EVERY_USER, 't4', { status: 'READY', detail: null })).toBe(false);
    expect(await tasks.update(EVERY_USER, 't1', { status: 'WORKING' })).toBe(false);
    expect((await tasks.getMany('default', ['t1', 't4'])).map((t) => [t.id, t.status, t.detail]).sort()).toEqual([
      ['t1', 'READY', null],
      ['t4', 'ERROR', 'interrupted'],
    ]);
    expect(await tasks.unfinished('me')).toEqual([]);
    const page = await tasks.search('default', {}, 'CREATED_AT_DESC', 0, 1);
    expect(page.rows.map((t) => t.id)).toEqual(['t4']);
    expect(page.more).toBe(true);
    expect(await tasks.count('default', {})).toBe(4);

    const sandboxes = new SandboxesStore(db);
    const record = sandboxRecord({ id: 'sb1', created_at: '2026-01-01T00:00:00.000Z', started_at: '2026-01-01T00:00:00.000Z' });
    await sandboxes.insert(record);
    await sandboxes.update('sb1', { pid: 4321, process_start: '987654' });
    expect(await sandboxes.get('sb1')).toEqual({ ...record, pid: 4321, process_start: '987654' });
    expect(await sandboxes.count()).toBe(1);
    expect(await sandboxes.getMany(['gone', 'sb1', 'sb1'])).toEqual([{ ...record, pid: 4321, process_start: '987654' }]);
    expect(await sandboxes.getMany([])).toEqual([]);
    await sandboxes.delete('sb1');
    expect(await sandboxes.list()).toEqual([]);
  });

  it('the sandbox list sees every write at once: through the store, in plain SQL, rolled back, from another connection', async () => {
    const sandboxes = new SandboxesStore(db);
    const ids = async () => (await sandboxes.list()).map((r) => `${r.id}:${r.port}`);
    expect(await ids()).toEqual([]);
    await sandboxes.insert(sandboxAt('sb1', '2026-01-01T00:00:00.000Z'));
    expect(await ids()).toEqual(['sb1:40123']);
    expect(await ids()).toEqual(['sb1:40123']);
    await sql`UPDATE sandboxes SET port = 1 WHERE id = 'sb1'`.execute(db);
    expect(await ids()).toEqual(['sb1:1']);
    let duringTransaction: Promise<string[]> | undefined;
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable('sandboxes').set({ port: 2 }).execute();
        // Asked while the change is not yet rolled back: the list must not be read, or cached, as it stands inside.
        duringTransaction = ids();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await duringTransaction).toEqual(['sb1:1']);
    expect(await ids()).toEqual(['sb1:1']);
    const another = openAnother();
    try {
      await new SandboxesStore(another).insert(sandboxAt('sb2', '2026-01-02T00:00:00.000Z'));
      expect(await ids()).toEqual(['sb2:40123', 'sb1:1']);
      await another.updateTable('sandboxes').set({ port: 3 }).where('id', '=', 'sb1').execute();
      expect(await ids()).toEqual(['sb2:40123', 'sb1:3']);
      await another.deleteFrom('sandboxes').execute();
      expect(await ids()).toEqual([]);
    } finally {
      await another.destroy();
    }
    await sandboxes.insert(sandboxAt('sb3', '2026-01-03T00:00:00.000Z'));
    const [listed] = await sandboxes.list();
    // The same list may be returned again: nobody may change it.
    expect(Object.isFrozen(listed)).toBe(true);
  });

  it("the sandbox list is read again after the server's own transaction, during which another connection committed", async () => {
    const sandboxes = new SandboxesStore(db);
    expect(await sandboxes.list()).toEqual([]);
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    let entered!: () => void;
    const inTransaction = new Promise<void>((resolve) => (entered = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      // Its snapshot is taken here: what others commit later is not seen inside it.
      await trx.selectFrom('sandboxes').selectAll().execute();
      entered();
      await held;
    });
    await inTransaction;
    const another = openAnother();
    try {
      await new SandboxesStore(another).insert(sandboxAt('sb1', '2026-01-01T00:00:00.000Z'));
      const listed = sandboxes.list();
      finish();
      await transaction;
      expect((await listed).map((r) => r.id)).toEqual(['sb1']);
    } finally {
      await another.destroy();
    }
  });

  it('settings and provider tokens, read on most requests, see writes at once, also from another connection', async () => {
    const settings = new SettingsStore(db);
    const secrets = new SecretsStore(db);
    const hosts = async () => (await secrets.listProviderTokens('default')).map((t) => `${t.provider}@${t.host}`);
    expect(await settings.load('default')).toBeUndefined();
    expect(await hosts()).toEqual([]);
    await settings.update('default', () => '{"a":1}');
    await secrets.updateProviderTokens('default', () => [{ provider: 'github', token: 'sealed', host: null, checked_at: null }]);
    expect(await settings.load('default')).toBe('{"a":1}');
    expect(await settings.load('other')).toBeUndefined();
    expect(await settings.load('default')).toBe('{"a":1}');
    expect(await hosts()).toEqual(['github@null']);
    const another = openAnother();
    try {
      await new SettingsStore(another).update('default', () => '{"a":2}');
      await new SecretsStore(another).updateProviderTokens('default', (current) => [
        ...current,
        { provider: 'gitlab', token: 's', host: 'gl.example', checked_at: null },
      ]);
      expect(await settings.load('default')).toBe('{"a":2}');
      expect(await hosts()).toEqual(['github@null', 'gitlab@gl.example']);
    } finally {
      await another.destroy();
    }
    expect(Object.isFrozen((await secrets.listProviderTokens('default'))[0])).toBe(true);
  });

  it('secrets: a check is recorded only for the token and host checked, null hosts included; upserts keep the order', async () => {
    const store = new SecretsStore(db);
    await store.updateProviderTokens('default', () => [
      { provider: 'github', token: 'sealed-1', host: null, checked_at: null },
      { provider: 'gitlab', token: 'sealed-2', host: 'gitlab.example', checked_at: null },
    ]);
    await store.recordProviderCheck('default', { provider: 'github', token: 'sealed-1', host: null }, '2026-01-01T00:00:00.000Z');
    await store.recordProviderCheck(
      'default',
      { provider: 'gitlab', token: 'sealed-2', host: 'other.example' },
      '2026-01-01T00:00:00.000Z',
    );
    expect(await store.listProviderTokens('default')).toEqual([
      { provider: 'github', token: 'sealed-1', host: null, checked_at: '2026-01-01T00:00:00.000Z' },
      { provider: 'gitlab', token: 'sealed-2', host: 'gitlab.example', checked_at: null },
    ]);

    expect(await store.insertCustomSecret('default', { name: 'A', value: 'v', description: '' })).toBe(true);
    expect(await store.insertCustomSecret('default', { name: 'A', value: 'w', description: '' })).toBe(false);
    await store.upsertCustomSecrets('default', [
      { name: 'B', value: 'b' },
      { name: 'A', description: 'first' },
    ]);
    expect(await store.updateCustomSecret('default', 'B', { name: 'A' })).toBe('name-taken');
    expect(await store.updateCustomSecret('default', 'A', { name: 'C' })).toBe('updated');
    expect(await store.listCustomSecrets('default')).toEqual([
      { name: 'C', value: 'v', description: 'first' },
      { name: 'B', value: 'b', description: '' },
    ]);
    expect(await store.deleteCustomSecret('default', 'C')).toBe(true);
    expect(await store.deleteCustomSecret('default', 'C')).toBe(false);
  });

  it('meta: the first value set stays', async () => {
    const meta = new MetaStore(db);
    expect(await meta.getOrSet('k', 'first')).toBe('first');
    expect(await meta.getOrSet('k', 'second')).toBe('first');
  });

  it('concurrent read-modify-writes lose no update: settings, provider tokens and custom secrets', async () => {
    const settings = new SettingsStore(db);
    const secrets = new SecretsStore(db);
    const slow = () => new Promise((resolve) => setTimeout(resolve, 5));
    const n = 20;
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        Promise.all([
          settings.update('default', (current) => {
            const document = JSON.parse(current ?? '{"saves":[]}') as { saves: number[] };
            return JSON.stringify({ saves: [...document.saves, i] });
          }),
          // the change is async in spirit: a slow writer must still not be overtaken
          slow().then(() =>
            secrets.updateProviderTokens('default', (current) => [
              ...current,
              { provider: `p${i}`, token: 'sealed', host: null, checked_at: null },
            ]),
          ),
          secrets.insertCustomSecret('default', { name: `S${i}`, value: 'v', description: '' }),
        ]),
      ),
    );
    const saves = (JSON.parse((await settings.load('default'))!) as { saves: number[] }).saves;
    expect([...saves].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
    expect(await secrets.listProviderTokens('default')).toHaveLength(n);
    const seqs = await db.selectFrom('custom_secrets').select('seq').execute();
    expect(new Set(seqs.map((row) => row.seq)).size).toBe(n); // each its own place in the list
  });
});

describe.each(onlyPostgres())('title order on a PostgreSQL database with an en-US collation', () => {
  let sqlite: Db;
  let postgres: Db;
  let cleanUp: () => Promise<void>;
  beforeEach(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-store-'));
    // As production databases are made (en_US.UTF-8); this machine has no such libc locale, ICU has.
    const fresh = await freshPostgresDatabase({ icuLocale: 'en-US' });
    [sqlite, postgres] = [openSqlite(dir), openPostgres(fresh.url)];
    cleanUp = async () => {
      await Promise.all([sqlite.destroy(), postgres.destroy()]);
      await fresh.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    };
    await Promise.all([migrateToLatest(sqlite), migrateToLatest(postgres)]);
  });
  afterEach(async () => cleanUp());

  const TITLES = [
    'apple',
    'Zebra',
    'Apple',
    'Ärger',
    'a-b',
    'ab',
    'a b',
    '_x',
    'B',
    'b',
    '10',
    '9',
    'é',
    'e',
    'E',
    'émile',
    'same',
    'same',
  ];

  /** Every title in `sort` order, read page by page (two rows a page) with the cursors a client would send. */
  async function paged(db: Db, sort: 'TITLE' | 'TITLE_DESC'): Promise<string[]> {
    const store = new ConversationsStore(db);
    const seen: string[] = [];
    let cursor: { value: string; id: string } | undefined;
    for (;;) {
      const page = await store.search('default', { archived: false }, sort, cursor, 2);
      seen.push(...page.rows.map((row) => `${row.sort_value} ${row.id}`));
      const last = page.rows.at(-1);
      if (!page.more || !last) return seen;
      cursor = { value: last.sort_value, id: last.id };
    }
  }

  it("is SQLite's (code point, upper case first), page by page (query-plans.test.ts: walking an index)", async () => {
    for (const db of [sqlite, postgres]) {
      const store = new ConversationsStore(db);
      for (const [n, title] of TITLES.entries()) await store.insert(conversation(n, title));
    }
    const { rows: localeOrder } = await sql<{ title: string }>`SELECT title FROM app_conversations ORDER BY title, id`.execute(postgres);
    const codePointOrder = [...TITLES].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(localeOrder.map((row) => row.title)).not.toEqual(codePointOrder); // the locale does order otherwise

    for (const sort of ['TITLE', 'TITLE_DESC'] as const) {
      const expected = await paged(sqlite, sort);
      expect(expected.map((line) => line.split(' c')[0])).toEqual(sort === 'TITLE' ? codePointOrder : [...codePointOrder].reverse());
      expect(await paged(postgres, sort)).toEqual(expected);
    }
  });
});

describe.each(onlyPostgres())('events on postgres', () => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeEach(async () => {
    const fresh = await freshPostgresDatabase();
    db = openPostgres(fresh.url);
    drop = fresh.drop;
    await migrateToLatest(db);
  });
  afterEach(async () => {
    await db.destroy();
    await drop();
  });

  it('an insert into a conversation waits for one under way, so a stream reading after a seq skips none', async () => {
    await new ConversationsStore(db).insert(conversation(1, 'events'));
    const store = new EventsStore(db);
    const event = (id: string): NewEvent => ({
      user_id: 'default',
      conversation_id: 'c001',
      event_id: id,
      kind: 'MessageEvent',
      source: 'user',
      timestamp: '2026-01-01T00:00:00.000Z',
      body: JSON.stringify({ id }),
    });
    let later: Promise<unknown> | undefined;
    // Another instance's insert, under way: its seq is taken, its row not yet shown.
    await db.transaction().execute(async (trx) => {
      await lockConversationEvents(trx, 'c001');
      await trx.insertInto('conversation_events').values(event('first')).execute();
      later = store.insertNew([event('second')]);
      await expect.poll(() => waitingForLock(db), { timeout: 10_000 }).toBe(true);
      expect(await store.after(EVERY_USER, 'c001', 0, 10)).toEqual([]);
    });
    await later;
    const seen = await store.after(EVERY_USER, 'c001', 0, 10);
    expect(seen.map((e) => e.event_id)).toEqual(['first', 'second']);
  });
});

/** Runs `test` on a SQLite database of its own (in `dir`), not migrated, removed afterwards. */
describe('stored fields migration (0011) on sqlite', () => {
  it('writes the fields of the conversations already stored, and drops them again on the way down', async () => {
    await onOwnSqlite(async (db) => {
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect((await migrator.migrateTo('0010_title_order_by_code_point')).error).toBeUndefined();
      await new ConversationsStore(db).insert({ ...conversation(7, 'Stored before'), pr_number: '[12]' });
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const [hit] = (await new ConversationsStore(db).search('default', { archived: false }, 'TITLE', undefined, 10)).rows;
      expect(JSON.parse(hit!.fields)).toMatchObject({ id: 'c007', title: 'Stored before', pr_number: [12], archived: false, skills: [] });
      expect((await migrator.migrateTo('0010_title_order_by_code_point')).error).toBeUndefined();
      const columns = await sql<{ name: string }>`SELECT name FROM pragma_table_info('app_conversations')`.execute(db);
      expect(columns.rows.map((row) => row.name)).not.toContain('answer_fields');
    });
  });

  it('reads a stored list that is not JSON as [] (as a lookup by id does), and runs again whole after stopping half-way', async () => {
    await onOwnSqlite(async (db) => {
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect((await migrator.migrateTo('0010_title_order_by_code_point')).error).toBeUndefined();
      await new ConversationsStore(db).insert({ ...conversation(8, 'Damaged'), pr_number: '', skills: '[1,' });
      // As a migration that stopped after its first statement leaves it (SQLite commits each on its own).
      await sql`ALTER TABLE app_conversations ADD COLUMN answer_fields TEXT`.execute(db);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const [hit] = (await new ConversationsStore(db).search('default', { archived: false }, 'TITLE', undefined, 10)).rows;
      expect(JSON.parse(hit!.fields)).toMatchObject({ id: 'c008', pr_number: [], skills: [] });
      await new ConversationsStore(db).update('default', 'c008', { title: 'Renamed' });
      const [renamed] = (await new ConversationsStore(db).search('default', { archived: false }, 'TITLE', undefined, 10)).rows;
      expect(JSON.parse(renamed!.fields)).toMatchObject({ title: 'Renamed', pr_number: [], skills: [] });
    });
  });
});

describe('creation-order rowids migration on sqlite', () => {
  it('numbers the conversations already stored newest first, makes their created_at canonical, and runs again whole', async () => {
    await onOwnSqlite(async (db) => {
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect((await migrator.migrateTo('0011_conversation_answer_fields')).error).toBeUndefined();
      // Written out of creation order; two share a millisecond; one time in a form the service never writes.
      for (const [id, created_at] of [
        ['b', '2026-01-01T00:02:00.000Z'],
        ['a', '2026-01-01T00:01:00.000Z'],
        ['d', '2026-01-01T00:03:00.000Z'],
        ['c', '2026-01-01T00:03:00.000Z'],
        ['e', '2026-01-01T01:00:00+01:00'],
      ] as const)
        await db
          .insertInto('app_conversations')
          .values(conversationRecord({ id, title: `Quokka ${id}`, created_at, updated_at: created_at }))
          .execute();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const byRowid = async () =>
        (await sql<{ id: string; created_at: string }>`SELECT id, created_at FROM app_conversations ORDER BY rowid`.execute(db)).rows;
      const newestFirst = [
        { id: 'd', created_at: '2026-01-01T00:03:00.000Z' },
        { id: 'c', created_at: '2026-01-01T00:03:00.000Z' },
        { id: 'b', created_at: '2026-01-01T00:02:00.000Z' },
        { id: 'a', created_at: '2026-01-01T00:01:00.000Z' },
        { id: 'e', created_at: '2026-01-01T00:00:00.000Z' },
      ];
      expect(await byRowid()).toEqual(newestFirst);
      const store = new ConversationsStore(db);
      const found = await store.search('default', { archived: false, title__contains: 'quokka' }, 'CREATED_AT_DESC', undefined, 10);
      expect(found.rows.map((row) => [row.id, JSON.parse(row.fields).created_at])).toEqual(
        newestFirst.map((row) => [row.id, row.created_at]),
      );

      // Written after b in b's millisecond, so below it, though its id is before b's.
      await store.insert(conversationRecord({ id: 'a0', title: 'Quokka a0', created_at: '2026-01-01T00:02:00.000Z' }));
      const afterInsert = ['d', 'c', 'a0', 'b', 'a', 'e'];
      expect((await byRowid()).map((row) => row.id)).toEqual(afterInsert);
      const { '0012_conversation_rowids_by_creation': migration } = await migrationProvider.getMigrations();
      await migration!.up(db);
      expect((await byRowid()).map((row) => row.id)).toEqual(afterInsert);
      const page = await store.search('default', { archived: false, title__contains: 'quokka' }, 'CREATED_AT', undefined, 3);
      expect(page.rows.map((row) => row.id)).toEqual(['e', 'a', 'a0']);
      expect(page.more).toBe(true);

      expect((await migrator.migrateTo('0011_conversation_answer_fields')).error).toBeUndefined();
      await store.insert(conversationRecord({ id: 'g', title: 'Quokka g', created_at: '2026-01-01T00:00:30.000Z' }));
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect((await byRowid()).map((row) => row.id)).toEqual(['d', 'c', 'a0', 'b', 'a', 'g', 'e']);
    });
  });

  it('refuses a created_at in another form than the canonical one or past the year 6429, and a change of it', async () => {
    await onOwnSqlite(async (db) => {
      await migrateToLatest(db);
      const store = new ConversationsStore(db);
      await expect(store.insert(conversationRecord({ id: 'a', created_at: '2026-01-01T00:00:00Z' }))).rejects.toThrow(/created_at/);
      // Past 2^47 ms a time does not fit a rowid.
      await expect(store.insert(conversationRecord({ id: 'a', created_at: '6500-01-01T00:00:00.000Z' }))).rejects.toThrow(/created_at/);
      await store.insert(conversationRecord({ id: 'a', created_at: '2026-01-01T00:00:00.000Z', title: 'Quokka' }));
      await expect(store.update('default', 'a', { created_at: '2026-01-02T00:00:00.000Z' })).rejects.toThrow(/created_at/);
      expect(await store.update('default', 'a', { title: 'Renamed quokka', created_at: '2026-01-01T00:00:00.000Z' })).toBe(true);
      const { rows } = await store.search('default', { archived: false, title__contains: 'renamed' }, 'CREATED_AT_DESC', undefined, 10);
      expect(rows.map((row) => row.id)).toEqual(['a']);
      expect(await store.delete('default', 'a')).toBe(true);
      expect(
        (await store.search('default', { archived: false, title__contains: 'quokka' }, 'CREATED_AT_DESC', undefined, 10)).rows,
      ).toEqual([]);
    });
  });
});

describe('stored fields column renamed (0013)', () => {
  /** The names of app_conversations' columns, and of the triggers on it. */
  const schemaNames = async (db: Db) => {
    const columns = await sql<{ name: string }>`SELECT name FROM pragma_table_info('app_conversations')`.execute(db);
    const triggers = await sql<{
      name: string;
    }>`SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'app_conversations'`.execute(db);
    return { columns: columns.rows.map((row) => row.name), triggers: triggers.rows.map((row) => row.name).sort() };
  };
  /** The stored fields of conversation `id`, read from whichever column holds them. */
  const storedFields = async (db: Db, id: string, column: string) => {
    const { rows } = await sql<{ fields: string }>`SELECT ${sql.ref(column)} AS fields FROM app_conversations WHERE id = ${id}`.execute(db);
    return JSON.parse(rows[0]!.fields) as Record<string, unknown>;
  };

  it('on sqlite, renames the column and its trigger, which go on writing the fields, and back on the way down; it runs again whole', async () => {
    await onOwnSqlite(async (db) => {
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect((await migrator.migrateTo('0012_conversation_rowids_by_creation')).error).toBeUndefined();
      const store = new ConversationsStore(db);
      await store.insert(conversationRecord({ id: 'a', title: 'Before' }));
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const renamed = await schemaNames(db);
      expect(renamed.columns).toContain('stored_fields_json');
      expect(renamed.columns).not.toContain('answer_fields');
      expect(renamed.triggers).toContain('app_conversations_stored_fields_json_update');
      expect(renamed.triggers).not.toContain('app_conversations_answer_fields_update');
      expect(await storedFields(db, 'a', 'stored_fields_json')).toMatchObject({ id: 'a', title: 'Before' });
      // The triggers write the renamed column: on insert (0012's trigger) and on update.
      await store.insert(conversationRecord({ id: 'b', title: 'Inserted', pr_number: '[7]' }));
      await store.update('default', 'a', { title: 'Updated' });
      expect(await storedFields(db, 'b', 'stored_fields_json')).toMatchObject({ title: 'Inserted', pr_number: [7] });
      expect(await storedFields(db, 'a', 'stored_fields_json')).toMatchObject({ title: 'Updated' });
      // Run again, as after stopping half-way: nothing changes.
      const { '0013_conversation_stored_fields_json': migration } = await migrationProvider.getMigrations();
      await migration!.up(db);
      expect(await schemaNames(db)).toEqual(renamed);

      expect((await migrator.migrateTo('0012_conversation_rowids_by_creation')).error).toBeUndefined();
      const before = await schemaNames(db);
      expect(before.columns).toContain('answer_fields');
      expect(before.columns).not.toContain('stored_fields_json');
      expect(before.triggers).toContain('app_conversations_answer_fields_update');
      await store.update('default', 'b', { title: 'Down again' });
      expect(await storedFields(db, 'b', 'answer_fields')).toMatchObject({ title: 'Down again', pr_number: [7] });
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await schemaNames(db)).toEqual(renamed);
      expect(
        (await store.search('default', { archived: false }, 'TITLE', undefined, 10)).rows.map((row) => JSON.parse(row.fields).title),
      ).toEqual(['Down again', 'Updated']);
    });
  });
});

describe.each(onlyPostgres())('stored fields column renamed (0013) on postgres', () => {
  it('changes nothing, up or down', async () => {
    const { url, drop } = await freshPostgresDatabase();
    const db = openPostgres(url);
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      const columns = async () =>
        (
          await sql<{
            name: string;
          }>`SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'app_conversations' ORDER BY name`.execute(db)
        ).rows.map((row) => row.name);
      expect((await migrator.migrateTo('0012_conversation_rowids_by_creation')).error).toBeUndefined();
      const before = await columns();
      expect((await migrator.migrateTo('0013_conversation_stored_fields_json')).error).toBeUndefined();
      expect(await columns()).toEqual(before);
      expect(before).not.toContain('stored_fields_json');
      expect((await migrator.migrateTo('0012_conversation_rowids_by_creation')).error).toBeUndefined();
      expect(await columns()).toEqual(before);
    } finally {
      await db.destroy();
      await drop();
    }
  });
});

describe.each(onlyPostgres())('stored fields column (0024) on postgres', () => {
  it("holds each row's fields as its search item has them, written again on update, a list that is not JSON as []; and goes on the way down", async () => {
    const { url, drop } = await freshPostgresDatabase();
    const db = openPostgres(url);
    const storedFields = async (id: string) => {
      const { rows } = await sql<{ fields: string }>`SELECT stored_fields_json AS fields FROM app_conversations WHERE id = ${id}`.execute(
        db,
      );
      return JSON.parse(rows[0]!.fields) as Record<string, unknown>;
    };
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect((await migrator.migrateTo('0023_title_trigrams_on_postgres')).error).toBeUndefined();
      const store = new ConversationsStore(db);
      await store.insert(conversationRecord({ id: 'a', title: 'Before', pr_number: '[7]', skills: 'not JSON' }));
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      // Rows there before the column have it too.
      expect(await storedFields('a')).toEqual({
        id: 'a',
        created_by_user_id: 'default',
        sandbox_id: expect.any(String),
        selected_repository: null,
        selected_branch: null,
        git_provider: null,
        title: 'Before',
        trigger: null,
        pr_number: [7],
        llm_model: null,
        parent_conversation_id: null,
        sub_conversation_ids: [],
        created_at: expect.any(String),
        updated_at: expect.any(String),
        archived: false,
        skills: [],
      });
      const skills = ['review', 'say "hi"', 'back\\slash', 'tab\tand\u0001', 'café ☕'];
      await store.insert(conversationRecord({ id: 'b', title: 'Inserted', skills: JSON.stringify(skills), pr_number: '[12,3.5e2]' }));
      await store.insert(conversationRecord({ id: 'c', title: 'Spaced', skills: ' [ "a" , 1 ] ', pr_number: '["unclosed' }));
      expect(await store.update('default', 'a', { title: 'Updated', archived: 1 })).toBe(true);
      expect(await storedFields('b')).toMatchObject({ title: 'Inserted', skills, pr_number: [12, 350], archived: false });
      expect(await storedFields('c')).toMatchObject({ skills: ['a', 1], pr_number: [] });
      await store.delete('default', 'c');
      expect(await storedFields('a')).toMatchObject({ title: 'Updated', archived: true });
      const { rows } = await store.search('default', { archived: false }, 'TITLE', undefined, 10);
      expect(rows.map((row) => JSON.parse(row.fields))).toEqual([await storedFields('b')]);

      expect((await migrator.migrateTo('0023_title_trigrams_on_postgres')).error).toBeUndefined();
      await expect(storedFields('a')).rejects.toThrow(/stored_fields_json/);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await storedFields('a')).toMatchObject({ title: 'Updated' });
    } finally {
      await db.destroy();
      await drop();
    }
  });
});

describe.each(onlyPostgres())('title index migration on postgres', () => {
  it('builds the code-point index beside the old one: conversations can be read while it waits to build', async () => {
    const { url, drop } = await freshPostgresDatabase();
    const db = openPostgres(url);
    const writer = new pg.Client({ connectionString: url });
    const reader = new pg.Client({ connectionString: url });
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect((await migrator.migrateTo('0009_server_instances')).error).toBeUndefined();
      await Promise.all([writer.connect(), reader.connect()]);
      // A write under way: building an index waits for it.
      await writer.query('BEGIN');
      await writer.query('LOCK TABLE app_conversations IN ROW EXCLUSIVE MODE');
      const migrating = migrator.migrateToLatest();
      const waiting = async () => {
        const { rows } = await reader.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'app_conversations'::regclass`,
        );
        return rows[0]!.n;
      };
      await expect.poll(waiting, { timeout: 10_000 }).toBe(1);
      // Not behind an exclusive lock the migration waits for (as a DROP INDEX first would be).
      await reader.query(`SET lock_timeout = '5s'`);
      expect((await reader.query('SELECT count(*)::int AS n FROM app_conversations')).rows).toEqual([{ n: 0 }]);
      await writer.query('COMMIT');
      expect((await migrating).error).toBeUndefined();
      const definition = async () =>
        (
          await reader.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE indexname LIKE 'app_conversations_by_title%'`)
        ).rows.map((row) => row.indexdef);
      expect(await definition()).toEqual([
        expect.stringContaining(
          'app_conversations_by_title ON public.app_conversations USING btree (user_id, archived, title COLLATE "C", id COLLATE "C")',
        ),
      ]);
      expect((await migrator.migrateTo('0009_server_instances')).error).toBeUndefined();
      expect(await definition()).toEqual([
        expect.stringContaining('app_conversations_by_title ON public.app_conversations USING btree (user_id, archived, title, id)'),
      ]);
    } finally {
      await Promise.all([writer.end(), reader.end()]);
      await db.destroy();
      await drop();
    }
  });
});

async function waitingForLock(db: Db): Promise<boolean> {
  const { rows } = await sql<{ waiting: number }>`
    SELECT count(*)::int AS waiting FROM pg_stat_activity
    WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%pg_advisory_xact_lock%'`.execute(db);
  return rows[0]!.waiting > 0;
}

describe('event search plan on SQLite', () => {
  it("reads one conversation's page from that conversation's index, not the user's whole timeline", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-store-'));
    let lastQuery: CompiledQuery | undefined;
    const db: Db = new Kysely<Database>({
      dialect: new QueuedSqliteDialect(new SQLite(path.join(dir, 'agent-console.db'))),
      log: (event) => {
        lastQuery = event.query;
      },
    });
    /** The plan SQLite chooses for the query a search runs. */
    const searchPlan = async (filter: EventFilter) => {
      await store.search('default', filter, false, undefined, 100);
      const { sql: text, parameters } = lastQuery!;
      const plan = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${text}`, [...parameters]));
      return plan.rows.map((row) => row.detail).join('\n');
    };
    const store = new EventsStore(db);
    try {
      await migrateToLatest(db);
      expect(await searchPlan({ conversation_id__eq: 'c001' })).toMatch(/USING INDEX conversation_events_by_time \(conversation_id=\?\)/);
      // Without a conversation, the user's timeline is the index to take.
      expect(await searchPlan({})).toMatch(/USING INDEX conversation_events_by_user_time/);
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
