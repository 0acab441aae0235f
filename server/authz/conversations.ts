import { msg } from '@lingui/core/macro';
import type { ConversationFilter, ConversationSortOrder } from '../../src/contract/conversations';
import { NotFound } from '../domain-errors';
import type { ConversationRecord, ConversationsStore, Cursor } from '../store/conversations-store';
import type { UserScope } from '../store/user-scope';
import type { Subject } from './caller';
import { authorize, requireScope } from './decide';
import type { Action } from './policy';

const notFound = (id: string) => () => new NotFound(msg`Conversation ${id} not found`);

/** App conversations as `subject` may reach them (see server/authz/policy.ts). */
export class ConversationRecords {
  constructor(
    private readonly store: ConversationsStore,
    private readonly subject: Subject,
  ) {}

  #scope(action: Action<'conversation'>): UserScope {
    return requireScope(this.subject, 'conversation', action);
  }

  async insert(record: ConversationRecord): Promise<void> {
    authorize(this.subject, 'conversation', 'create', { ownerId: record.user_id }, notFound(record.id));
    await this.store.insert(record);
  }

  async get(id: string): Promise<ConversationRecord | undefined> {
    return this.store.get(this.#scope('read'), id);
  }

  async getMany(ids: string[]): Promise<ConversationRecord[]> {
    return this.store.getMany(this.#scope('read'), ids);
  }

  /** Conversation `id` if the subject may do `action` to it: NotFound when it may not see it, Forbidden (saying why) when it may only see it. */
  async authorize(action: Action<'conversation'>, id: string): Promise<ConversationRecord> {
    const record = await this.get(id);
    if (!record) throw notFound(id)();
    authorize(this.subject, 'conversation', action, { ownerId: record.user_id }, notFound(id));
    return record;
  }

  /** Whether it changed (`false`: none the subject may change has that id). */
  async update(id: string, changes: Parameters<ConversationsStore['update']>[2]): Promise<boolean> {
    return this.store.update(this.#scope('update'), id, changes);
  }

  /** Whether it was deleted (`false`: none the subject may delete has that id). */
  async delete(id: string): Promise<boolean> {
    return this.store.delete(this.#scope('delete'), id);
  }

  async search(filter: ConversationFilter, sort: ConversationSortOrder, cursor: Cursor | undefined, limit: number) {
    return this.store.search(this.#scope('read'), filter, sort, cursor, limit);
  }

  async count(filter: ConversationFilter): Promise<number> {
    return this.store.count(this.#scope('read'), filter);
  }

  async subConversationIds(parentIds: string[]): Promise<Map<string, string[]>> {
    return this.store.subConversationIds(this.#scope('read'), parentIds);
  }

  async bySandbox(sandboxIds: string[]) {
    return this.store.bySandbox(this.#scope('read'), sandboxIds);
  }

  async inSandboxes(sandboxIds: string[]): Promise<ConversationRecord[]> {
    return this.store.inSandboxes(this.#scope('read'), sandboxIds);
  }

  async countUsingSandbox(sandboxId: string): Promise<number> {
    return this.store.countUsingSandbox(this.#scope('read'), sandboxId);
  }
}
