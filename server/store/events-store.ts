import { type QueryExecutorProvider, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { EventFilter } from '../../src/contract/events';
import type { Db } from './database';
import { userIs, type UserScope } from './user-scope';
import { isPostgres, lockForUpdate } from './dialect';
import { EVENTS_CHANNEL } from './event-notices';
import type { ConversationEventsTable, Database } from './schema';

export type EventRecord = Selectable<ConversationEventsTable>;
export type NewEvent = Omit<EventRecord, 'seq'>;
/** An event as a search page reads it: its text, and where it stands (the next page's cursor). */
export type SearchedEvent = Pick<EventRecord, 'seq' | 'timestamp' | 'body'>;

/** Where a search page starts: after the row with this timestamp and seq (in the page's direction). */
export interface EventCursor {
  timestamp: string;
  seq: number;
}

type EventQuery = SelectQueryBuilder<Database, 'conversation_events', object>;

function applyFilter(query: EventQuery, scope: UserScope, filter: EventFilter, postgres: boolean): EventQuery {
  // One conversation's events: SQLite took the user's timeline index for this too (it keeps no
  // statistics to tell them apart), walking every event of the user's other conversations. The
  // unary + keeps user_id out of its choice of index.
  const oneConversation = filter.conversation_id__eq !== undefined && !postgres;
  let q = query.where(userIs(scope, oneConversation ? sql`+user_id` : sql.ref('user_id')));
  if (filter.conversation_id__eq) q = q.where('conversation_id', '=', filter.conversation_id__eq);
  if (filter.kind__eq) q = q.where('kind', '=', filter.kind__eq);
  if (filter.timestamp__gte) q = q.where('timestamp', '>=', filter.timestamp__gte);
  if (filter.timestamp__lt) q = q.where('timestamp', '<', filter.timestamp__lt);
  return q;
}

/** Holds, until the transaction ends, the right to add events to conversation `conversationId` (PostgreSQL; SQLite writes one at a time). */
export const lockConversationEvents = (trx: QueryExecutorProvider, conversationId: string): Promise<void> =>
  lockForUpdate(trx, `conversation-events:${conversationId}`);

/** Conversation events, each stored once per conversation (by its id), in the order they came. */
export class EventsStore {
  readonly #postgres: boolean;

  constructor(private readonly db: Db) {
    this.#postgres = isPostgres(db);
  }

  /** Inserts those not stored yet, in order, in one transaction; returns the ones that were new (with their seq). */
  async insertNew(events: NewEvent[]): Promise<EventRecord[]> {
    if (events.length === 0) return [];
    return this.db.transaction().execute(async (trx) => {
      // PostgreSQL hands out seq at insert but shows rows at commit: two transactions on one
      // conversation committing out of order would let a stream reading after a seq skip one. One
      // at a time per conversation (locks in one order, so two batches never deadlock).
      for (const id of [...new Set(events.map((event) => event.conversation_id))].sort()) await lockConversationEvents(trx, id);
      const inserted: EventRecord[] = [];
      for (const event of events) {
        const row = await trx
          .insertInto('conversation_events')
          .values(event)
          .onConflict((oc) => oc.columns(['conversation_id', 'event_id']).doNothing())
          .returning('seq')
          .executeTakeFirst();
        if (row) inserted.push({ ...event, seq: row.seq });
      }
      // A conversation is updated when its agent works: its newest event moves its updated_at on.
      const newest = new Map<string, string>();
      for (const { conversation_id: id, timestamp } of inserted) if (timestamp > (newest.get(id) ?? '')) newest.set(id, timestamp);
      // A conversation's times are to the millisecond, as every other time the API gives.
      for (const [id, timestamp] of newest) newest.set(id, new Date(Date.parse(timestamp)).toISOString());
      for (const [id, timestamp] of newest) {
        await trx
          .updateTable('app_conversations')
          .set({ updated_at: timestamp })
          .where('id', '=', id)
          .where('updated_at', '<', timestamp)
          .execute();
      }
      // Delivered at commit, to every instance listening (see event-notices).
      if (this.#postgres) {
        for (const id of new Set(inserted.map((event) => event.conversation_id))) {
          await sql`SELECT pg_notify(${EVENTS_CHANNEL}, ${id})`.execute(trx);
        }
      }
      return inserted;
    });
  }

  /** One page in time order (ties in storage order) after `cursor`, plus whether more follow. */
  async search(
    scope: UserScope,
    filter: EventFilter,
    descending: boolean,
    cursor: EventCursor | undefined,
    limit: number,
  ): Promise<{ rows: SearchedEvent[]; more: boolean }> {
    const direction = descending ? 'desc' : 'asc';
    let query = applyFilter(this.db.selectFrom('conversation_events'), scope, filter, this.#postgres);
    if (cursor) {
      const beyond = descending ? '<' : '>';
      // A row value, so SQLite seeks the index to the cursor instead of walking it from the first row.
      query = query.where((eb) => eb(eb.refTuple('timestamp', 'seq'), beyond, eb.tuple(cursor.timestamp, cursor.seq)));
    }
    // Only what a page is made of: reading the other columns would slow every page.
    const rows = await query
      .select(['seq', 'timestamp', 'body'])
      .orderBy('timestamp', direction)
      .orderBy('seq', direction)
      .limit(limit + 1)
      .execute();
    return { rows: rows.slice(0, limit), more: rows.length > limit };
  }

  async count(scope: UserScope, filter: EventFilter): Promise<number> {
    const row = await applyFilter(this.db.selectFrom('conversation_events'), scope, filter, this.#postgres)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async getMany(scope: UserScope, eventIds: string[]): Promise<EventRecord[]> {
    if (eventIds.length === 0) return [];
    return this.db.selectFrom('conversation_events').selectAll().where(userIs(scope)).where('event_id', 'in', eventIds).execute();
  }

  /** The condition that keeps one conversation's events to the scope's (see applyFilter on why `+user_id` on SQLite). */
  #ofScope(scope: UserScope) {
    return userIs(scope, this.#postgres ? sql.ref('user_id') : sql`+user_id`);
  }

  /** The storage position of event `eventId` of conversation `conversationId`; `undefined` when it is not stored. */
  async seqOf(scope: UserScope, conversationId: string, eventId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('conversation_events')
      .select('seq')
      .where(this.#ofScope(scope))
      .where('conversation_id', '=', conversationId)
      .where('event_id', '=', eventId)
      .executeTakeFirst();
    return row?.seq;
  }

  /** Up to `limit` events of a conversation stored after position `afterSeq`, in storage order. */
  after(scope: UserScope, conversationId: string, afterSeq: number, limit: number): Promise<EventRecord[]> {
    return this.db
      .selectFrom('conversation_events')
      .selectAll()
      .where(this.#ofScope(scope))
      .where('conversation_id', '=', conversationId)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }
}
