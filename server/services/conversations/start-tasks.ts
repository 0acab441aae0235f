import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type StartRequest,
  type StartTask,
  startRequestSchema,
  type TaskFilter,
  type TaskSearchQuery,
  type TaskStatus,
} from '../../../src/contract/conversations';
import { asSystem, type Caller } from '../../authz/caller';
import type { DataAccess } from '../../authz/data-access';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import type { StartTaskRecord } from '../../store/start-tasks-store';
import { normaliseId, refuseTooMany } from '../ids';
import { paginateOffset } from '../paging';

/** How often a start another instance runs is read again, for a stream on this one. */
const FOLLOW_ELSEWHERE_MS = 500;

export function toTask(record: StartTaskRecord): StartTask {
  return {
    id: record.id,
    created_by_user_id: record.user_id,
    status: record.status as TaskStatus,
    detail: record.detail,
    app_conversation_id: record.app_conversation_id,
    sandbox_id: record.sandbox_id,
    agent_server_url: record.agent_server_url,
    request: startRequestSchema.parse(JSON.parse(record.request)),
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/**
 * The start tasks' records: each start's task saved in WORKING and then at every step, each saved
 * state told to the listeners; the reads of them; and what instances that stopped left mid-way
 * ended in ERROR.
 */
export class StartTasks {
  readonly #updates = new EventEmitter();
  /** Stamps tasks and what their starts make. */
  readonly now: () => string;

  constructor(
    private readonly data: DataAccess,
    /** The server instance that runs the starts asked of it (see `server_instances`). */
    private readonly instanceId: string,
    clock: Clock,
    private readonly log: Logger,
  ) {
    this.#updates.setMaxListeners(0);
    this.now = () => clock().toISOString();
  }

  /** Saves a new task in WORKING for `request`, run by this instance. */
  async create(caller: Caller, request: StartRequest): Promise<StartTaskRecord> {
    const now = this.now();
    const record: StartTaskRecord = {
      id: randomUUID().replaceAll('-', ''),
      user_id: caller.userId,
      status: 'WORKING',
      detail: null,
      app_conversation_id: null,
      sandbox_id: null,
      agent_server_url: null,
      request: JSON.stringify(request),
      created_at: now,
      updated_at: now,
      owner_instance: this.instanceId,
    };
    await this.data.as(caller).startTasks.insert(record);
    return record;
  }

  /** Saves a step of task `taskId` and tells the listeners its state as saved. */
  async save(caller: Caller, taskId: string, changes: Partial<Omit<StartTaskRecord, 'id' | 'user_id' | 'created_at'>>): Promise<void> {
    const tasks = this.data.as(caller).startTasks;
    if (!(await tasks.update(taskId, { ...changes, updated_at: this.now() })))
      this.log.warn({ task: taskId, status: changes.status }, 'a conversation start was ended elsewhere; its progress is not saved');
    const record = await tasks.get(taskId);
    if (record) this.#updates.emit('task', toTask(record));
  }

  /** See StartTaskService.onUpdate. */
  onUpdate(listener: (task: StartTask) => void): () => void {
    this.#updates.on('task', listener);
    return () => this.#updates.off('task', listener);
  }

  /** See StartTaskService.subscribe. */
  subscribe(taskId: string, listener: (task: StartTask) => void): () => void {
    return this.onUpdate((task) => {
      if (task.id === taskId) listener(task);
    });
  }

  /** Sends `onUpdate` each state another instance saves of its task, up to READY or ERROR, read from the database. */
  async followElsewhere(caller: Caller, task: StartTask, onUpdate: (task: StartTask) => void): Promise<void> {
    let last = task;
    while (last.status !== 'READY' && last.status !== 'ERROR') {
      await sleep(FOLLOW_ELSEWHERE_MS);
      const record = await this.data
        .as(caller)
        .startTasks.get(task.id)
        .catch(() => undefined);
      if (!record) return;
      const now = toTask(record);
      if (now.status !== last.status || now.updated_at !== last.updated_at) onUpdate(now);
      last = now;
    }
  }

  /** See StartTaskService.markInterrupted. */
  async markInterrupted(): Promise<number> {
    const tasks = this.data.as(asSystem('recover sandboxes after a restart')).startTasks;
    const unfinished = await tasks.unfinished(this.instanceId);
    for (const task of unfinished) {
      await tasks.update(task.id, {
        status: 'ERROR',
        detail: 'Interrupted by a server restart; start it again',
        updated_at: this.now(),
      });
    }
    return unfinished.length;
  }

  /** See StartTaskService.interruptTasksOfGoneInstances. */
  async interruptOfGoneInstances(quietSince: string): Promise<void> {
    const detail = 'Interrupted: the server instance that ran it stopped or stopped responding; start it again';
    const count = await this.data
      .as(asSystem('end the starts of gone instances'))
      .startTasks.interruptOfGoneInstances(this.instanceId, quietSince, detail, this.now());
    if (count > 0) this.log.warn({ tasks: count }, 'ended the conversation starts of server instances that are gone');
  }

  async getMany(caller: Caller, ids: string[]): Promise<(StartTask | null)[]> {
    refuseTooMany(ids, 'start tasks');
    const wanted = ids.map(normaliseId);
    const found = await this.data.as(caller).startTasks.getMany(wanted.filter((id): id is string => id !== undefined));
    const byId = new Map(found.map((record) => [record.id, toTask(record)]));
    return wanted.map((id) => (id === undefined ? null : (byId.get(id) ?? null)));
  }

  async search(caller: Caller, query: TaskSearchQuery) {
    return paginateOffset(query.page_id, query.limit, (offset, limit) =>
      this.data
        .as(caller)
        .startTasks.search(query, query.sort_order, offset, limit)
        .then(({ rows, more }) => ({ items: rows.map(toTask), more })),
    );
  }

  count(caller: Caller, filter: TaskFilter): Promise<number> {
    return this.data.as(caller).startTasks.count(filter);
  }
}
