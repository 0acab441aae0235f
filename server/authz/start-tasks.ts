import { msg } from '@lingui/core/macro';
import type { TaskFilter } from '../../src/contract/conversations';
import { NotFound } from '../domain-errors';
import type { StartTaskRecord, StartTasksStore, TaskSort } from '../store/start-tasks-store';
import type { Subject } from './caller';
import { authorize, requireEveryone, requireScope } from './decide';

/** Conversation starts as `subject` may reach them (see server/authz/policy.ts). */
export class StartTaskRecords {
  constructor(
    private readonly store: StartTasksStore,
    private readonly subject: Subject,
  ) {}

  async insert(record: StartTaskRecord): Promise<void> {
    authorize(
      this.subject,
      'start_task',
      'create',
      { ownerId: record.user_id },
      () => new NotFound(msg`Start task ${record.id} not found`),
    );
    await this.store.insert(record);
  }

  async get(id: string): Promise<StartTaskRecord | undefined> {
    return this.store.get(requireScope(this.subject, 'start_task', 'read'), id);
  }

  async getMany(ids: string[]): Promise<StartTaskRecord[]> {
    return this.store.getMany(requireScope(this.subject, 'start_task', 'read'), ids);
  }

  /** Saves a step of task `id` while it is unfinished; whether it was (see StartTasksStore.update). */
  async update(id: string, changes: Parameters<StartTasksStore['update']>[2]): Promise<boolean> {
    return this.store.update(requireScope(this.subject, 'start_task', 'update'), id, changes);
  }

  /** What instance `instanceId` left unfinished, everyone's. */
  async unfinished(instanceId: string): Promise<StartTaskRecord[]> {
    requireEveryone(this.subject, 'start_task', 'update');
    return this.store.unfinished(instanceId);
  }

  async interruptOfGoneInstances(instanceId: string, quietSince: string, detail: string, now: string): Promise<number> {
    requireEveryone(this.subject, 'start_task', 'update');
    return this.store.interruptOfGoneInstances(instanceId, quietSince, detail, now);
  }

  async delete(id: string): Promise<void> {
    return this.store.delete(requireScope(this.subject, 'start_task', 'delete'), id);
  }

  async deleteForConversation(conversationId: string): Promise<void> {
    return this.store.deleteForConversation(requireScope(this.subject, 'start_task', 'delete'), conversationId);
  }

  async search(filter: TaskFilter, sort: TaskSort, offset: number, limit: number) {
    return this.store.search(requireScope(this.subject, 'start_task', 'read'), filter, sort, offset, limit);
  }

  async count(filter: TaskFilter): Promise<number> {
    return this.store.count(requireScope(this.subject, 'start_task', 'read'), filter);
  }
}
