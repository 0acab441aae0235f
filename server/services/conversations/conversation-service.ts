import { msg } from '@lingui/core/macro';
import {
  type AppConversation,
  type ConversationFilter,
  type ConversationPatch,
  type ConversationSearchQuery,
  type SandboxConversations,
} from '../../../src/contract/conversations';
import type { SandboxInfo } from '../../../src/contract/sandboxes';
import { type Clock, systemClock } from '../../clock';
import { StoredJsonList } from '../json-texts';
import { NotFound } from '../../domain-errors';
import type { Logger } from '../../logger';
import type { ConversationRecord } from '../../store/conversations-store';
import { normaliseId, refuseTooMany } from '../ids';
import { decodeCursor, encodeCursor } from './page-cursor';
import type { AgentConversations } from './agent-conversations';
import type { EventCollector } from '../events/event-collector';
import type { EventService } from '../events/event-service';
import type { SandboxService } from '../sandboxes/sandbox-service';
import type { StartTaskService } from './start-task-service';
import { asSystem, type Caller } from '../../authz/caller';
import type { DataAccess } from '../../authz/data-access';
import { storedMetrics } from './stored-metrics';
import { type AuditRecorder, NO_AUDIT } from '../audit/audit-recorder';
import { changesOf } from '../audit/audit-diff';

/** What an item has beside what is stored of it (see #liveFields). */
type LiveFields = Pick<AppConversation, 'metrics' | 'sandbox_status' | 'execution_status' | 'conversation_url' | 'session_api_key'>;

/** A search page, its items as JSON texts (see StoredJsonList). */
export interface StoredPage {
  items: StoredJsonList<AppConversation>;
  next_page_id: string | null;
}

const parseJson = <T>(text: string | null, fallback: T): T => {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

/**
 * App conversations: what is stored about each, with its live state (its sandbox's status, its
 * agent's execution status) from what the sandbox service already knows, so a search never
 * waits on a sandbox.
 */
export class ConversationService {
  constructor(
    private readonly data: DataAccess,
    private readonly startTasks: StartTaskService,
    private readonly sandboxes: SandboxService,
    private readonly events: EventService,
    private readonly agents: AgentConversations,
    private readonly collector: EventCollector,
    private readonly log: Logger,
    private readonly clock: Clock = systemClock,
    private readonly audit: AuditRecorder = NO_AUDIT,
  ) {}

  /** What an item has beside its stored fields: its metrics, read through their schema, and its live state. */
  #liveFields(record: Pick<ConversationRecord, 'id' | 'sandbox_id' | 'metrics'>, sandboxes: Map<string, SandboxInfo>): LiveFields {
    const sandbox = sandboxes.get(record.sandbox_id);
    const running = sandbox?.status === 'RUNNING';
    const agentUrl = running ? sandbox.exposed_urls?.find((url) => url.name === 'AGENT_SERVER')?.url : undefined;
    return {
      metrics: storedMetrics(record.metrics),
      sandbox_status: sandbox?.status ?? 'MISSING',
      // What its agent server last said on the event socket (its full state comes first on every connection).
      execution_status: running ? (this.events.executionStatus(record.id) ?? null) : null,
      conversation_url: agentUrl ? `${agentUrl}/api/conversations/${record.id}` : null,
      session_api_key: running ? sandbox.session_api_key : null,
    };
  }

  async #withLiveState(caller: Caller, records: ConversationRecord[]): Promise<AppConversation[]> {
    const sandboxes = await this.sandboxes.ofConversations(caller, records);
    const children = await this.data.as(caller).conversations.subConversationIds(records.map((record) => record.id));
    return records.map((record) => ({
      id: record.id,
      created_by_user_id: record.user_id,
      sandbox_id: record.sandbox_id,
      selected_repository: record.selected_repository,
      selected_branch: record.selected_branch,
      git_provider: record.git_provider,
      title: record.title,
      trigger: record.trigger,
      pr_number: parseJson<number[]>(record.pr_number, []),
      llm_model: record.llm_model,
      parent_conversation_id: record.parent_conversation_id,
      sub_conversation_ids: children.get(record.id) ?? [],
      created_at: record.created_at,
      updated_at: record.updated_at,
      archived: record.archived === 1,
      skills: parseJson<string[]>(record.skills, []),
      ...this.#liveFields(record, sandboxes),
    }));
  }

  /** A page whose items are JSON texts: the fields the database wrote (see ConversationsStore.search) and the live ones. */
  async search(caller: Caller, query: ConversationSearchQuery): Promise<StoredPage> {
    const cursor = decodeCursor(query.sort_order, query.page_id);
    const { rows, more } = await this.data.as(caller).conversations.search(query, query.sort_order, cursor, query.limit);
    const sandboxes = await this.sandboxes.ofConversations(caller, rows);
    const last = rows.at(-1);
    return {
      // `fields` is a JSON object text: the live fields join it before its closing brace.
      items: new StoredJsonList(
        rows.map((row) => `${row.fields.slice(0, -1)},${JSON.stringify(this.#liveFields(row, sandboxes)).slice(1)}`),
      ),
      next_page_id: more && last ? encodeCursor(query.sort_order, { value: last.sort_value, id: last.id }) : null,
    };
  }

  count(caller: Caller, filter: ConversationFilter): Promise<number> {
    return this.data.as(caller).conversations.count(filter);
  }

  /** The conversations each of `sandboxIds` serves, in request order. */
  async bySandbox(caller: Caller, sandboxIds: string[]): Promise<SandboxConversations> {
    refuseTooMany(sandboxIds, 'sandboxes');
    const rows = await this.data.as(caller).conversations.bySandbox(sandboxIds);
    return sandboxIds.map((id) => ({
      sandbox_id: id,
      conversations: rows.filter((row) => row.sandbox_id === id).map(({ id: conversationId, title }) => ({ id: conversationId, title })),
    }));
  }

  /** In request order, `null` for an id that is unknown (or no id at all). */
  async getMany(caller: Caller, ids: string[]): Promise<(AppConversation | null)[]> {
    refuseTooMany(ids, 'conversations');
    const wanted = ids.map(normaliseId);
    const found = await this.#withLiveState(
      caller,
      await this.data.as(caller).conversations.getMany(wanted.filter((id): id is string => id !== undefined)),
    );
    const byId = new Map(found.map((conversation) => [conversation.id, conversation]));
    return wanted.map((id) => (id === undefined ? null : (byId.get(id) ?? null)));
  }

  async get(caller: Caller, id: string): Promise<AppConversation> {
    const [conversation] = await this.getMany(caller, [id]);
    if (!conversation) throw new NotFound(msg`Conversation ${id} not found`);
    return conversation;
  }

  /** Renames or (un)archives it; returns the conversation as it is now. */
  async update(caller: Caller, id: string, patch: ConversationPatch): Promise<AppConversation> {
    const hex = normaliseId(id);
    const changes = {
      ...(patch.title === undefined ? {} : { title: patch.title }),
      ...(patch.archived === undefined ? {} : { archived: patch.archived ? 1 : 0 }),
      updated_at: this.clock().toISOString(),
    };
    const conversations = this.data.as(caller).conversations;
    const before = hex ? await conversations.get(hex) : undefined;
    if (!hex || !(await conversations.update(hex, changes))) throw new NotFound(msg`Conversation ${id} not found`);
    const after = await this.get(caller, hex);
    const archiving = patch.archived !== undefined && Boolean(before?.archived) !== patch.archived;
    await this.audit.record(caller, {
      action: archiving ? 'archive' : 'write',
      resourceType: 'conversation',
      resourceId: hex,
      resourceTarget: after.title,
      diff: changesOf(
        { title: before?.title ?? null, archived: Boolean(before?.archived) },
        { title: after.title, archived: Boolean(after.archived) },
      ),
    });
    return after;
  }

  /**
   * Deletes this instance's sandboxes that a conversation's start made and that no conversation
   * uses (a stop half-way through a start, or through a delete, left them); returns how many.
   * Run at start, after this instance's unfinished starts ended (a start makes its sandbox on the
   * instance that runs it, so none can be under way then).
   */
  async removeLeftoverSandboxes(): Promise<number> {
    const recovery = asSystem('recover sandboxes after a restart');
    const conversations = this.data.as(recovery).conversations;
    let removed = 0;
    for (const { id, conversationId } of await this.sandboxes.madeForConversations(recovery)) {
      if (await conversations.get(conversationId)) continue;
      if ((await conversations.countUsingSandbox(id)) > 0) continue;
      await this.sandboxes.delete(recovery, id).then(
        () => removed++,
        (error: unknown) =>
          this.log.error(
            { sandbox: id, conversation: conversationId, err: error },
            'could not delete a sandbox left by a conversation start or delete',
          ),
      );
    }
    return removed;
  }

  /**
   * Removes it and its start tasks; a start still under way for it is cancelled first. Its agent
   * is paused (its sandbox may stay), its events are no longer collected and its live streams
   * end. Its sandbox goes too when this conversation's start created it and no other conversation uses it.
   */
  async delete(caller: Caller, id: string): Promise<void> {
    const hex = normaliseId(id);
    if (!hex) throw new NotFound(msg`Conversation ${id} not found`);
    const data = this.data.as(caller);
    const cancelled = await this.startTasks.cancelFor(caller, hex);
    // A start cancelled before its conversation was stored leaves none to delete.
    const conversation = await this.agents.allowed(caller, hex, 'delete').catch((error: unknown) => {
      if (cancelled && error instanceof NotFound) return undefined;
      throw error;
    });
    const record = conversation?.record;
    if (conversation) {
      await this.agents.pauseForDelete(caller, conversation);
      await data.conversations.delete(hex); // its events go with it (foreign key)
      await this.audit.record(caller, {
        action: 'delete',
        resourceType: 'conversation',
        resourceId: hex,
        resourceTarget: conversation.record.title,
      });
    }
    // At once: events that come now have no conversation to be stored in.
    this.collector.drop(hex);
    this.events.close(hex);
    await data.startTasks.deleteForConversation(hex);
    if (cancelled) await data.startTasks.delete(cancelled.taskId);
    const sandboxId = record?.sandbox_id ?? cancelled?.sandboxId;
    const created = record ? record.sandbox_created === 1 : cancelled?.sandboxCreated;
    const using =
      sandboxId && (await this.data.as(asSystem('count the conversations in a sandbox')).conversations.countUsingSandbox(sandboxId));
    if (sandboxId && created && using === 0) {
      await this.sandboxes.delete(caller, sandboxId).catch((error: unknown) => {
        if (!(error instanceof NotFound))
          this.log.error({ conversation: hex, sandbox: sandboxId, err: error }, 'could not delete the sandbox of a deleted conversation');
      });
    }
  }
}
