import { CompiledQuery, type Selectable, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { ConversationFilter, ConversationSortOrder } from '../../src/contract/conversations';
import type { Db } from './database';
import { isPostgres } from './dialect';
import type { AppConversationsTable, Database } from './schema';

export type ConversationRecord = Selectable<AppConversationsTable>;

/**
 * A row found by a search: its stored fields as the JSON object an answer's item has them
 * (`fields`), and what the service adds the live ones from.
 */
export interface ConversationHit {
  id: string;
  sandbox_id: string;
  metrics: string | null;
  /** The value of the sort order's column, for the next page's cursor. */
  sort_value: string;
  fields: string;
}

/** Where a keyset page starts: after the row with this sort value and id. */
export interface Cursor {
  value: string;
  id: string;
}

const SORTS: Record<ConversationSortOrder, { column: 'created_at' | 'updated_at' | 'title'; descending: boolean }> = {
  CREATED_AT: { column: 'created_at', descending: false },
  CREATED_AT_DESC: { column: 'created_at', descending: true },
  UPDATED_AT: { column: 'updated_at', descending: false },
  UPDATED_AT_DESC: { column: 'updated_at', descending: true },
  TITLE: { column: 'title', descending: false },
  TITLE_DESC: { column: 'title', descending: true },
};

export const sortColumn = (sort: ConversationSortOrder) => SORTS[sort].column;

/** The trigram index matches runs of three characters; a shorter term is looked for row by row. */
const TRIGRAM = 3;

/** `term` as one FTS5 phrase: quotes doubled, so it is matched as text, never as query syntax. */
const ftsPhrase = (term: string) => `"${term.replaceAll('"', '""')}"`;
/** `term` for LIKE, with its own % and _ taken literally. */
const likeContains = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type ConversationQuery = SelectQueryBuilder<Database, 'app_conversations', object>;

/**
 * An item's stored fields as one JSON object text, written by the database: made into JavaScript
 * values and objects, then into JSON again, they took about half of a page's time. SQLite keeps
 * it in a column (migration 0011: building it took most of the query); PostgreSQL builds it as
 * that migration does. Stored JSON (pr_number, skills) goes in as it is; `archived` is a boolean.
 */
function storedFieldsJson(postgres: boolean) {
  return postgres
    ? sql<string>`json_build_object('id', id, 'created_by_user_id', NULL, 'sandbox_id', sandbox_id,
        'selected_repository', selected_repository, 'selected_branch', selected_branch, 'git_provider', git_provider,
        'title', title, 'trigger', trigger, 'pr_number', pr_number::json, 'llm_model', llm_model,
        'parent_conversation_id', parent_conversation_id, 'sub_conversation_ids', json_build_array(),
        'created_at', created_at, 'updated_at', updated_at, 'archived', archived = 1, 'skills', skills::json)::text`
    : sql<string>`answer_fields`;
}

/**
 * The rows of `query` in `sort` order after `cursor` (a row value, so the sort index is sought to
 * it, not walked to it). Titles sort as SQLite's BINARY compares them, bytes (code points), on
 * PostgreSQL too: its "C" collation does so whatever locale the database has (an en_US one would
 * put `apple` before `Zebra`, and the pages of the two would differ). The index of migration
 * 0010 has that collation, so pages walk it. Times and ids need none: ASCII in one fixed format,
 * which every locale orders alike.
 */
function inOrder(query: ConversationQuery, sort: ConversationSortOrder, cursor: Cursor | undefined, postgres: boolean): ConversationQuery {
  const { column, descending } = SORTS[sort];
  const byCodePoint = postgres && column === 'title';
  const key = (name: string) => (byCodePoint ? sql.raw(`${name} COLLATE "C"`) : sql.ref(name));
  const [first, second] = [key(column), key('id')];
  const direction = sql.raw(descending ? 'DESC' : 'ASC');
  let q = query;
  if (cursor) {
    const beyond = sql.raw(descending ? '<' : '>');
    // Spelled with OR instead, SQLite walked the index from the first row: slower the deeper the page.
    q = q.where(sql<SqlBool>`(${first}, ${second}) ${beyond} (${cursor.value}, ${cursor.id})`);
  }
  return q.orderBy(sql`${first} ${direction}`).orderBy(sql`${second} ${direction}`);
}

/** Titles containing `term`, case-insensitively: SQLite's LIKE and its trigram index are; PostgreSQL has ILIKE. */
function titleContains(query: ConversationQuery, term: string, postgres: boolean): ConversationQuery {
  if (postgres) return query.where(sql<SqlBool>`title ILIKE ${likeContains(term)} ESCAPE '\\'`);
  return term.length >= TRIGRAM
    ? query.where(
        sql<SqlBool>`app_conversations.rowid IN (SELECT rowid FROM app_conversation_titles WHERE app_conversation_titles MATCH ${ftsPhrase(term)})`,
      )
    : query.where(sql<SqlBool>`title LIKE ${likeContains(term)} ESCAPE '\\'`);
}

function applyFilter(query: ConversationQuery, userId: string, filter: ConversationFilter, postgres: boolean): ConversationQuery {
  let q = query.where('user_id', '=', userId).where('archived', '=', filter.archived ? 1 : 0);
  if (filter.title__contains) q = titleContains(q, filter.title__contains, postgres);
  if (filter.created_at__gte) q = q.where('created_at', '>=', filter.created_at__gte);
  if (filter.created_at__lt) q = q.where('created_at', '<', filter.created_at__lt);
  if (filter.updated_at__gte) q = q.where('updated_at', '>=', filter.updated_at__gte);
  if (filter.updated_at__lt) q = q.where('updated_at', '<', filter.updated_at__lt);
  if (filter.sandbox_id__eq) q = q.where('sandbox_id', '=', filter.sandbox_id__eq);
  return q;
}

/** App conversations, one row each; search pages with keyset cursors over an index per sort order. */
export class ConversationsStore {
  readonly #postgres: boolean;

  constructor(private readonly db: Db) {
    this.#postgres = isPostgres(db);
  }

  async insert(record: ConversationRecord): Promise<void> {
    await this.db.insertInto('app_conversations').values(record).execute();
  }

  get(userId: string, id: string): Promise<ConversationRecord | undefined> {
    return this.db.selectFrom('app_conversations').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  }

  async getMany(userId: string, ids: string[]): Promise<ConversationRecord[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('app_conversations').selectAll().where('user_id', '=', userId).where('id', 'in', ids).execute();
  }

  async update(userId: string, id: string, changes: Partial<Omit<ConversationRecord, 'id' | 'user_id'>>): Promise<boolean> {
    const result = await this.db
      .updateTable('app_conversations')
      .set(changes)
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('app_conversations').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The conversations of user `userId` in the sandboxes `sandboxIds`: their titles, by sandbox. */
  async titlesBySandbox(userId: string, sandboxIds: string[]): Promise<Map<string, string[]>> {
    const titles = new Map<string, string[]>();
    if (sandboxIds.length === 0) return titles;
    const rows = await this.db
      .selectFrom('app_conversations')
      .select(['sandbox_id', 'title'])
      .where('user_id', '=', userId)
      .where('sandbox_id', 'in', sandboxIds)
      .orderBy('created_at')
      .execute();
    for (const row of rows) titles.set(row.sandbox_id, [...(titles.get(row.sandbox_id) ?? []), row.title]);
    return titles;
  }

  /** The conversations (of anyone) in the sandboxes `sandboxIds`. */
  async inSandboxes(sandboxIds: string[]): Promise<ConversationRecord[]> {
    if (sandboxIds.length === 0) return [];
    return this.db.selectFrom('app_conversations').selectAll().where('sandbox_id', 'in', sandboxIds).execute();
  }

  /** How many conversations (of anyone) use sandbox `sandboxId`. */
  async countUsingSandbox(sandboxId: string): Promise<number> {
    const row = await this.db
      .selectFrom('app_conversations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('sandbox_id', '=', sandboxId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The rows of a search page (one more than `limit`: whether more follow). */
  #searchQuery(userId: string, filter: ConversationFilter, sort: ConversationSortOrder, cursor: Cursor | undefined, limit: number) {
    const filtered = applyFilter(this.db.selectFrom('app_conversations'), userId, filter, this.#postgres);
    return inOrder(filtered, sort, cursor, this.#postgres)
      .select([
        'id',
        'sandbox_id',
        'metrics',
        sql.ref<string>(sortColumn(sort)).as('sort_value'),
        storedFieldsJson(this.#postgres).as('fields'),
      ])
      .limit(limit + 1);
  }

  /** One page in `sort` order after `cursor`, plus whether more follow. */
  async search(
    userId: string,
    filter: ConversationFilter,
    sort: ConversationSortOrder,
    cursor: Cursor | undefined,
    limit: number,
  ): Promise<{ rows: ConversationHit[]; more: boolean }> {
    const rows = await this.#searchQuery(userId, filter, sort, cursor, limit).execute();
    return { rows: rows.slice(0, limit), more: rows.length > limit };
  }

  async count(userId: string, filter: ConversationFilter): Promise<number> {
    const row = await applyFilter(this.db.selectFrom('app_conversations'), userId, filter, this.#postgres)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The query plan the database chooses for a search (a page after `cursor`, if given), one line
   * each, for a test that every sort is served by an index.
   */
  async explainSearch(userId: string, filter: ConversationFilter, sort: ConversationSortOrder, cursor?: Cursor): Promise<string[]> {
    const compiled = this.#searchQuery(userId, filter, sort, cursor, 100).compile();
    if (this.#postgres) {
      const plan = await this.db.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`EXPLAIN ${compiled.sql}`, [...compiled.parameters]),
      );
      return plan.rows.map((row) => row['QUERY PLAN']);
    }
    const plan = await this.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]),
    );
    return plan.rows.map((row) => row.detail);
  }
}
