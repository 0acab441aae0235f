import { type Expression, type Selectable, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { ConversationFilter, ConversationSortOrder } from '../../src/contract/conversations';
import type { Db } from './database';
import { userIs, type UserScope } from './user-scope';
import { isPostgres } from './dialect';
import { CREATION_MS_LIMIT_0012, CREATION_SLOTS_0012 } from './migrations';
import type { AppConversationsTable, Database } from './schema';

export type ConversationRecord = Selectable<AppConversationsTable>;

/**
 * A row found by a search: its stored fields as the JSON object a response's item has them
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

type SortColumn = 'created_at' | 'updated_at' | 'title';

const SORTS: Record<ConversationSortOrder, { column: SortColumn; descending: boolean }> = {
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
 * An item's stored fields as one JSON object text, written by the database when the row is, not
 * made into JavaScript values and objects and then into JSON again: SQLite's triggers keep it
 * (migrations 0011 and 0013), PostgreSQL's generated column (migration 0024); building it per
 * search is slower on both. Stored JSON (pr_number, skills) goes in as it is; `archived` is a
 * boolean. The service's lookup by id builds the same object from the columns (a test holds them
 * alike). See docs/performance.md.
 */
const storedFieldsJson = sql<string>`stored_fields_json`;

/** Rows after `cursor` in an order by `first`, then `second`. Spelled with OR instead, SQLite walked the index from the first row. */
const pastCursor = (first: Expression<unknown>, second: Expression<unknown>, cursor: Cursor, descending: boolean) =>
  sql<SqlBool>`(${first}, ${second}) ${sql.raw(descending ? '<' : '>')} (${cursor.value}, ${cursor.id})`;

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
  const q = cursor ? query.where(pastCursor(first, second, cursor, descending)) : query;
  return q.orderBy(sql`${first} ${direction}`).orderBy(sql`${second} ${direction}`);
}

/** A column of app_conversations, named with its table: a title search joins another table with a `title`. */
const column = (name: string) => sql.ref(`app_conversations.${name}`);

/** Titles containing `term`, case-insensitively: SQLite's LIKE and its trigram index are; PostgreSQL has ILIKE. */
function titleContains(term: string, postgres: boolean): Expression<SqlBool> {
  if (postgres) return sql<SqlBool>`${column('title')} ILIKE ${likeContains(term)} ESCAPE '\\'`;
  return term.length >= TRIGRAM
    ? sql<SqlBool>`app_conversations.rowid IN (SELECT rowid FROM app_conversation_titles WHERE app_conversation_titles MATCH ${ftsPhrase(term)})`
    : sql<SqlBool>`${column('title')} LIKE ${likeContains(term)} ESCAPE '\\'`;
}

/** A query the filter goes on: conversations alone, or joined to their titles' index. */
interface Filterable<Q> {
  where(condition: Expression<SqlBool>): Q;
}

/**
 * The conditions of `filter` on `query`. A page in `sortBy` order walks that order's index: on
 * SQLite, which keeps no statistics, a time range on another column would otherwise be sought in
 * its own index and every row in it sorted (the unary + keeps the column out of its choice).
 */
function applyFilter<Q extends Filterable<Q>>(
  query: Q,
  scope: UserScope,
  filter: ConversationFilter,
  postgres: boolean,
  sortBy?: SortColumn,
): Q {
  const time = (name: 'created_at' | 'updated_at') =>
    postgres || sortBy === undefined || sortBy === name ? column(name) : sql`+${column(name)}`;
  const conditions: Expression<SqlBool>[] = [
    userIs(scope, column('user_id')),
    sql<SqlBool>`${column('archived')} = ${filter.archived ? 1 : 0}`,
  ];
  if (filter.title__contains) conditions.push(titleContains(filter.title__contains, postgres));
  if (filter.created_at__gte) conditions.push(sql<SqlBool>`${time('created_at')} >= ${filter.created_at__gte}`);
  if (filter.created_at__lt) conditions.push(sql<SqlBool>`${time('created_at')} < ${filter.created_at__lt}`);
  if (filter.updated_at__gte) conditions.push(sql<SqlBool>`${time('updated_at')} >= ${filter.updated_at__gte}`);
  if (filter.updated_at__lt) conditions.push(sql<SqlBool>`${time('updated_at')} < ${filter.updated_at__lt}`);
  if (filter.sandbox_id__eq) conditions.push(sql<SqlBool>`${column('sandbox_id')} = ${filter.sandbox_id__eq}`);
  if (filter.created_by_user_id__eq) conditions.push(sql<SqlBool>`${column('user_id')} = ${filter.created_by_user_id__eq}`);
  if (!filter.include_sub_conversations) conditions.push(sql<SqlBool>`${column('parent_conversation_id')} IS NULL`);
  return conditions.reduce((q, condition) => q.where(condition), query);
}

/**
 * The lowest rowid a conversation created at or before `time` can have (`CREATED_AT_DESC` pages go
 * on there), or the highest one created at or after it, if `time` is as created_at holds it
 * (migration 0012); a cursor's time is the client's to send, any other is not used.
 */
function creationKeyBound(time: string, descending: boolean): bigint | undefined {
  const ms = Date.parse(time);
  if (!/^\d{4}-/.test(time) || !(Math.abs(ms) < CREATION_MS_LIMIT_0012) || new Date(ms).toISOString() !== time) return undefined;
  const latest = -BigInt(ms) * BigInt(CREATION_SLOTS_0012);
  return descending ? latest - BigInt(CREATION_SLOTS_0012 - 1) : latest;
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

  get(scope: UserScope, id: string): Promise<ConversationRecord | undefined> {
    return this.db.selectFrom('app_conversations').selectAll().where(userIs(scope)).where('id', '=', id).executeTakeFirst();
  }

  async getMany(scope: UserScope, ids: string[]): Promise<ConversationRecord[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('app_conversations').selectAll().where(userIs(scope)).where('id', 'in', ids).execute();
  }

  async update(scope: UserScope, id: string, changes: Partial<Omit<ConversationRecord, 'id' | 'user_id'>>): Promise<boolean> {
    const result = await this.db.updateTable('app_conversations').set(changes).where(userIs(scope)).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes it; its sub-conversations stay, as conversations of their own (the list shows them then). */
  async delete(scope: UserScope, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('app_conversations').where(userIs(scope)).where('id', '=', id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    await this.db.updateTable('app_conversations').set({ parent_conversation_id: null }).where('parent_conversation_id', '=', id).execute();
    return true;
  }

  /** The ids of the conversations in `scope` that the conversations `parentIds` started, by parent, oldest first. */
  async subConversationIds(scope: UserScope, parentIds: string[]): Promise<Map<string, string[]>> {
    const children = new Map<string, string[]>();
    if (parentIds.length === 0) return children;
    const rows = await this.db
      .selectFrom('app_conversations')
      .select(['id', 'parent_conversation_id'])
      .where(userIs(scope))
      .where('parent_conversation_id', 'in', parentIds)
      .orderBy('created_at')
      .execute();
    for (const { id, parent_conversation_id: parent } of rows) if (parent) children.set(parent, [...(children.get(parent) ?? []), id]);
    return children;
  }

  /** The conversations in `scope` in the sandboxes `sandboxIds`, oldest first. */
  bySandbox(scope: UserScope, sandboxIds: string[]): Promise<Pick<ConversationRecord, 'id' | 'title' | 'sandbox_id'>[]> {
    if (sandboxIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('app_conversations')
      .select(['id', 'title', 'sandbox_id'])
      .where(userIs(scope))
      .where('sandbox_id', 'in', sandboxIds)
      .orderBy('created_at')
      .execute();
  }

  /** The conversations in `scope` in the sandboxes `sandboxIds`. */
  async inSandboxes(scope: UserScope, sandboxIds: string[]): Promise<ConversationRecord[]> {
    if (sandboxIds.length === 0) return [];
    return this.db.selectFrom('app_conversations').selectAll().where(userIs(scope)).where('sandbox_id', 'in', sandboxIds).execute();
  }

  /** How many conversations in `scope` use sandbox `sandboxId`. */
  async countUsingSandbox(scope: UserScope, sandboxId: string): Promise<number> {
    const row = await this.db
      .selectFrom('app_conversations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(userIs(scope))
      .where('sandbox_id', '=', sandboxId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The rows of a search page (one more than `limit`: whether more follow). */
  #searchQuery(scope: UserScope, filter: ConversationFilter, sort: ConversationSortOrder, cursor: Cursor | undefined, limit: number) {
    const filtered = applyFilter(this.db.selectFrom('app_conversations'), scope, filter, this.#postgres, sortColumn(sort));
    return inOrder(filtered, sort, cursor, this.#postgres)
      .select(['id', 'sandbox_id', 'metrics', sql.ref<string>(sortColumn(sort)).as('sort_value'), storedFieldsJson.as('fields')])
      .limit(limit + 1);
  }

  /**
   * SQLite, a title search in creation order: the trigram index's matches in rowid order, which is
   * creation order (migration 0012), joined to their rows until the page is full, instead of every
   * match looked for along the date index. Rowids
   * order by the millisecond only, so the rows read are sorted by created_at and id; rows not read
   * come after the last one read, or tie with it: if the page's last row ties with it too, they
   * may belong in the page, and it is searched the usual way instead.
   */
  #titleSearchInCreationOrder(
    scope: UserScope,
    filter: ConversationFilter,
    sort: ConversationSortOrder,
    cursor: Cursor | undefined,
    limit: number,
  ) {
    const term = filter.title__contains;
    const { column: sortBy, descending } = SORTS[sort];
    if (this.#postgres || sortBy !== 'created_at' || term === undefined || term.length < TRIGRAM) return undefined;
    let matches = applyFilter(
      this.db
        .selectFrom(sql<{ rowid: bigint }>`app_conversation_titles`.as('app_conversation_titles'))
        // CROSS: SQLite joins in the order written, the index's matches first.
        .crossJoin('app_conversations')
        .where(sql<SqlBool>`app_conversations.rowid = app_conversation_titles.rowid`)
        .where(sql<SqlBool>`app_conversation_titles MATCH ${ftsPhrase(term)}`),
      scope,
      { ...filter, title__contains: undefined },
      false,
    );
    if (cursor) {
      matches = matches.where(pastCursor(column('created_at'), column('id'), cursor, descending));
      const bound = creationKeyBound(cursor.value, descending);
      if (bound !== undefined)
        matches = matches.where(sql<SqlBool>`app_conversation_titles.rowid ${sql.raw(descending ? '>=' : '<=')} ${bound}`);
    }
    const direction = descending ? 'desc' : 'asc';
    const page = matches
      .select([
        'app_conversations.id',
        'app_conversations.sandbox_id',
        'app_conversations.metrics',
        sql.ref<string>('app_conversations.created_at').as('sort_value'),
        sql<string>`app_conversations.stored_fields_json`.as('fields'),
      ])
      .orderBy(sql`app_conversation_titles.rowid ${sql.raw(descending ? 'ASC' : 'DESC')}`)
      .limit(limit + 1);
    // Named, not `*`: see SqliteConnection on what a `*` costs.
    return this.db
      .selectFrom(page.as('page'))
      .select(['id', 'sandbox_id', 'metrics', 'sort_value', 'fields'])
      .orderBy('sort_value', direction)
      .orderBy('id', direction);
  }

  /** One page in `sort` order after `cursor`, plus whether more follow. */
  async search(
    scope: UserScope,
    filter: ConversationFilter,
    sort: ConversationSortOrder,
    cursor: Cursor | undefined,
    limit: number,
  ): Promise<{ rows: ConversationHit[]; more: boolean }> {
    const inCreationOrder = this.#titleSearchInCreationOrder(scope, filter, sort, cursor, limit);
    const found = inCreationOrder && (await inCreationOrder.execute());
    const noTieAtPageEnd = found && (found.length <= limit || found[limit - 1]!.sort_value !== found[limit]!.sort_value);
    const rows = noTieAtPageEnd ? found : await this.#searchQuery(scope, filter, sort, cursor, limit).execute();
    return { rows: rows.slice(0, limit), more: rows.length > limit };
  }

  async count(scope: UserScope, filter: ConversationFilter): Promise<number> {
    const row = await applyFilter(this.db.selectFrom('app_conversations'), scope, filter, this.#postgres)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
