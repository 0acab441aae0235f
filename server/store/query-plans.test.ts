import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATION_SORT_ORDERS, type ConversationFilter, TASK_SORT_ORDERS, type TaskFilter } from '../../src/contract/conversations';
import type { EventFilter } from '../../src/contract/events';
import { conversationRecord, startTaskRecord } from '../testing/conversation-records';
import { databasesUnderTest, freshPostgresDatabase, onlyPostgres } from '../testing/databases';
import { fullScans, pagesRead, planOf, recordingQueries, sorts } from '../testing/query-plans';
import { ConversationsStore } from './conversations-store';
import { type Db, migrateToLatest, openPostgres, openSqlite } from './database';
import { isPostgres } from './dialect';
import { migrationProvider } from './migrations';
import { EventsStore } from './events-store';
import { StartTasksStore } from './start-tasks-store';
import { EVERY_USER, type UserScope } from './user-scope';
import { UsageStore } from './usage-store';
import { UsersStore } from './users-store';

/*
 * Every search, count and sort order the API offers, as a member (one user's rows) and as the
 * owner or an admin (everyone's), read through an index: no step reads a whole table, and pages
 * come in the index's order, not sorted after reading every row they could be. The plans are the
 * databases' own for the queries the stores run (recorded, not written again here). Where a filter
 * narrows the rows to a few by an index of its own (one sandbox's conversations), sorting those is
 * allowed.
 */

const USERS = ['alice', 'bob', 'carol'];
const SCOPES: [string, UserScope][] = [
  ['a member', 'alice'],
  ['the owner or an admin', EVERY_USER],
];
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
const CURSOR_TIME = at(100);

async function seed(db: Db): Promise<void> {
  const conversations = new ConversationsStore(db);
  const events = new EventsStore(db);
  const tasks = new StartTasksStore(db);
  const users = new UsersStore(db);
  for (const [n, user] of USERS.entries())
    await users.insert({
      ...{ id: user, email: `${user}@example.com`, role: 'member', status: 'active', created_at: at(n) },
      ...{ name: null, password_hash: null, invited_by: null, invitation_hash: null, invitation_expires_at: null },
    });
  for (let n = 0; n < 240; n++) {
    const user = USERS[n % USERS.length]!;
    const id = `c${String(n).padStart(3, '0')}`;
    await conversations.insert(
      conversationRecord({
        id,
        user_id: user,
        sandbox_id: `s${n % 40}`,
        title: `${n % 10 === 0 ? 'Quokka' : 'Wombat'} ${n}`,
        archived: n % 7 === 0 ? 1 : 0,
        parent_conversation_id: n % 9 === 0 && n > 0 ? 'c000' : null,
        created_at: at(n),
        updated_at: at(n + 5),
      }),
    );
    await tasks.insert(startTaskRecord({ id: `t${n}`, user_id: user, app_conversation_id: id, created_at: at(n), updated_at: at(n + 1) }));
    await db
      .insertInto('llm_calls')
      .values({
        ...{ user_id: user, conversation_id: id, model: n % 2 ? 'gpt-4o' : 'claude', status: 200 },
        ...{ prompt_tokens: 100, completion_tokens: 10, cache_read_tokens: 0, cost: 0.01, created_at: at(n) },
      })
      .execute();
    await db
      .insertInto('conversation_starts')
      .values({ user_id: user, conversation_id: id, created_at: at(n) })
      .execute();
    await db
      .insertInto('sandbox_runs')
      .values({
        sandbox_id: `s${n % 40}`,
        user_id: user,
        runtime: 'process',
        started_at: at(n),
        ended_at: at(n + 3),
        open: n >= 200 ? 1 : 0,
      })
      .execute();
    if (n % 8 === 0)
      await events.insertNew(
        [0, 1, 2].map((i) => ({
          user_id: user,
          conversation_id: id,
          event_id: `${id}-e${i}`,
          kind: i === 0 ? 'MessageEvent' : 'ActionEvent',
          source: 'agent',
          timestamp: at(n + i),
          body: '{}',
        })),
      );
  }
  // PostgreSQL keeps statistics (autovacuum gathers them); SQLite's server never asks for any.
  if (isPostgres(db)) await sql`ANALYZE`.execute(db);
}

describe.each(databasesUnderTest())('query plans on %s', (database) => {
  let db: Db;
  let cleanUp: () => Promise<void>;
  beforeAll(async () => {
    if (database === 'postgres') {
      const fresh = await freshPostgresDatabase();
      db = openPostgres(fresh.url);
      cleanUp = fresh.drop;
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-plans-'));
      db = openSqlite(dir);
      cleanUp = async () => fs.rmSync(dir, { recursive: true, force: true });
    }
    await migrateToLatest(db);
    await seed(db);
  });
  afterAll(async () => {
    await db.destroy();
    await cleanUp();
  });

  /** The plans of the queries `run` makes through a store on `db`. */
  async function plansOf(run: (db: Db) => Promise<unknown>): Promise<string[][]> {
    const recording = recordingQueries(db);
    await run(recording.db);
    expect(recording.queries.length).toBeGreaterThan(0);
    return Promise.all(recording.queries.map((query) => planOf(db, query)));
  }

  /** Fails, naming the case and its plan, on a step that reads a whole table or, unless `sortAllowed`, sorts. */
  async function expectIndexed(what: string, run: (db: Db) => Promise<unknown>, sortAllowed = false) {
    for (const plan of await plansOf(run)) {
      expect(fullScans(plan), `${what}: a whole table read\n${plan.join('\n')}`).toEqual([]);
      if (!sortAllowed) expect(sorts(plan), `${what}: rows sorted after reading\n${plan.join('\n')}`).toEqual([]);
    }
  }

  const conversationFilters: [string, ConversationFilter, boolean][] = [
    ['no filter', { archived: false }, false],
    ['archived', { archived: true }, false],
    ['with sub-conversations', { archived: false, include_sub_conversations: true }, false],
    ['a title term', { archived: false, title__contains: 'quokka' }, database === 'sqlite'],
    ['a short title term', { archived: false, title__contains: 'qu' }, false],
    ['created between', { archived: false, created_at__gte: at(10), created_at__lt: at(200) }, false],
    ['updated since', { archived: false, updated_at__gte: at(10), updated_at__lt: at(300) }, false],
    ['one user', { archived: false, created_by_user_id__eq: 'bob' }, false],
    // One sandbox's conversations are a few, found by its index, then sorted.
    ['one sandbox', { archived: false, sandbox_id__eq: 's3' }, true],
  ];

  describe.each(SCOPES)('as %s', (_, scope) => {
    it.each(conversationFilters)(
      'conversations: search in every sort order, first page and after a cursor, and count, %s',
      async (what, filter, sortAllowed) => {
        for (const sort of CONVERSATION_SORT_ORDERS)
          for (const cursor of [undefined, { value: sort.startsWith('TITLE') ? 'Wombat 5' : CURSOR_TIME, id: 'c100' }])
            await expectIndexed(
              `${what}, ${sort}${cursor ? ', after a cursor' : ''}`,
              (db) => new ConversationsStore(db).search(scope, filter, sort, cursor, 20),
              sortAllowed,
            );
        await expectIndexed(`${what}, count`, (db) => new ConversationsStore(db).count(scope, filter), true);
      },
    );

    it.each<[string, EventFilter]>([
      ['of a conversation', { conversation_id__eq: 'c016' }],
      ['of every conversation', {}],
      ['of a kind', { kind__eq: 'MessageEvent' }],
      ['in a time range', { timestamp__gte: at(10), timestamp__lt: at(200) }],
      ['of a kind in a conversation', { conversation_id__eq: 'c016', kind__eq: 'ActionEvent' }],
    ])('events: search both ways, first page and after a cursor, and count, %s', async (what, filter) => {
      for (const descending of [false, true])
        for (const cursor of [undefined, { timestamp: CURSOR_TIME, seq: 10 }])
          await expectIndexed(`${what}, ${descending ? 'newest' : 'oldest'} first${cursor ? ', after a cursor' : ''}`, (db) =>
            new EventsStore(db).search(scope, filter, descending, cursor, 20),
          );
      await expectIndexed(`${what}, count`, (db) => new EventsStore(db).count(scope, filter), true);
    });

    it.each<[string, TaskFilter, boolean]>([
      ['no filter', {}, false],
      ['created since', { created_at__gte: at(10) }, false],
      // One conversation's start tasks are a few, found by its index, then sorted.
      ['of a conversation', { conversation_id__eq: 'c016' }, true],
    ])('start tasks: search in every sort order and count, %s', async (what, filter, sortAllowed) => {
      for (const sort of TASK_SORT_ORDERS)
        await expectIndexed(`${what}, ${sort}`, (db) => new StartTasksStore(db).search(scope, filter, sort, 0, 20), sortAllowed);
      await expectIndexed(`${what}, count`, (db) => new StartTasksStore(db).count(scope, filter), true);
    });
  });

  describe.each(SCOPES)('usage as %s', (_, scope) => {
    // Grouped by day, user and model: the rows of the range come from an index, then are grouped.
    it.each<[string, (store: UsageStore) => Promise<unknown>]>([
      ['LLM calls per day, user and model', (store) => store.llmByDay(scope, at(10), at(200))],
      ['costs since a time', (store) => store.costSince(scope, at(100))],
      ['sandbox running time', (store) => store.sandboxRuns(scope, at(10), at(200))],
      ['conversations started per day', (store) => store.startsByDay(scope, at(10), at(200))],
    ])('%s over a range', async (what, read) => {
      await expectIndexed(what, (db) => read(new UsageStore(db)), true);
    });
  });

  it('usage: a sandbox’s open stretch found by its id', async () => {
    await expectIndexed('running', (db) => new UsageStore(db).running({ sandbox_id: 's3', user_id: 'alice', runtime: 'process' }, at(300)));
    await expectIndexed('stopped', (db) => new UsageStore(db).stopped('s3', at(301)));
  });

  it('team members: listed in the order they joined', async () => {
    await expectIndexed('members', (db) => new UsersStore(db).list(0, 20));
  });
});

describe.each(onlyPostgres())('title search plans on a larger table, on %s', () => {
  it("reads a rare term's matches from the trigram index at every ANALYZE, for a member and for everyone, and no pending list", async () => {
    const fresh = await freshPostgresDatabase();
    const db = openPostgres(fresh.url);
    try {
      // Half the rows written before 0026, half after: neither half may be left in the index's pending list.
      expect(
        (await new Migrator({ db, provider: migrationProvider }).migrateTo('0025_title_statistics_on_postgres')).error,
      ).toBeUndefined();
      await db
        .insertInto('users')
        .values({ id: 'alice', email: 'alice@example.com', role: 'member', status: 'active', created_at: at(0) })
        .execute();
      // 100,000 conversations (at fewer a table scan is cheaper), a third of them a member's; one in a hundred has the term.
      const insertConversations = (from: number, to: number) =>
        sql`INSERT INTO app_conversations (id, user_id, sandbox_id, sandbox_created, title, pr_number, skills, archived, created_at, updated_at)
          SELECT 'c' || n, CASE WHEN n % 3 = 2 THEN 'alice' ELSE 'default' END, 's' || (n % 100), 0,
            (ARRAY['Fix', 'Flaky', 'Deploy', 'Review', 'Docs', 'Login', 'Update', 'Wombat'])[1 + n % 8] || ' ' ||
              (ARRAY['tests', 'build', 'page', 'cache', 'search', 'form', 'api', 'notes'])[1 + (n * 7) % 8] || ' #' || n ||
              CASE WHEN n % 100 = 0 THEN ' quokka' ELSE '' END,
            '[]', '[]', 0, to_char(timestamp '2025-01-01' + n * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            to_char(timestamp '2025-01-01' + n * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
          FROM generate_series(${from}::int, ${to}::int) n`.execute(db);
      await insertConversations(1, 50_000);
      await migrateToLatest(db);
      await insertConversations(50_001, 100_000);
      const titleSearch = async (scope: UserScope) => {
        const recording = recordingQueries(db);
        await new ConversationsStore(recording.db).search(
          scope,
          { archived: false, title__contains: 'quokka' },
          'CREATED_AT_DESC',
          undefined,
          100,
        );
        return recording.queries[0]!;
      };
      // ANALYZE samples anew each time: the planner's choice must not depend on the sample.
      for (let round = 0; round < 5; round++) {
        await sql`ANALYZE app_conversations`.execute(db);
        for (const scope of ['alice', EVERY_USER] as const) {
          const plan = await planOf(db, await titleSearch(scope), { asCosted: true });
          expect(plan.join('\n'), `round ${round + 1}, ${String(scope)}`).toContain('app_conversations_title_trigrams');
        }
      }
      // Its entries in the index itself, not in a pending list each search reads whole (0026).
      const run = await planOf(db, await titleSearch(EVERY_USER), { asCosted: true, run: true });
      expect(pagesRead(run, 'Bitmap Index Scan on app_conversations_title_trigrams')).toBeLessThan(40);
    } finally {
      await db.destroy();
      await fresh.drop();
    }
  });
});
