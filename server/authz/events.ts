import type { EventFilter } from '../../src/contract/events';
import type { EventCursor, EventRecord, EventsStore, NewEvent, SearchedEvent } from '../store/events-store';
import type { Subject } from './caller';
import { allows, refused, requireScope } from './decide';

/** Conversation events as `subject` may reach them (see server/authz/policy.ts): each is its conversation's user's. */
export class EventRecords {
  constructor(
    private readonly store: EventsStore,
    private readonly subject: Subject,
  ) {}

  /** Stores those not stored yet (see EventsStore.insertNew); the subject may store each one's user's. */
  async insertNew(events: NewEvent[]): Promise<EventRecord[]> {
    for (const userId of new Set(events.map((event) => event.user_id))) {
      if (!allows(this.subject, 'event', 'create', { ownerId: userId })) throw refused(this.subject, 'event', 'create');
    }
    return this.store.insertNew(events);
  }

  async search(
    filter: EventFilter,
    descending: boolean,
    cursor: EventCursor | undefined,
    limit: number,
  ): Promise<{ rows: SearchedEvent[]; more: boolean }> {
    return this.store.search(requireScope(this.subject, 'event', 'read'), filter, descending, cursor, limit);
  }

  async count(filter: EventFilter): Promise<number> {
    return this.store.count(requireScope(this.subject, 'event', 'read'), filter);
  }

  async getMany(eventIds: string[]): Promise<EventRecord[]> {
    return this.store.getMany(requireScope(this.subject, 'event', 'read'), eventIds);
  }

  async seqOf(conversationId: string, eventId: string): Promise<number | undefined> {
    return this.store.seqOf(requireScope(this.subject, 'event', 'read'), conversationId, eventId);
  }

  async after(conversationId: string, afterSeq: number, limit: number): Promise<EventRecord[]> {
    return this.store.after(requireScope(this.subject, 'event', 'read'), conversationId, afterSeq, limit);
  }
}
