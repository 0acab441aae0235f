import { msg } from '@lingui/core/macro';
import {
  agentMetricsOf,
  type ExecutionStatus,
  executionStatusSchema,
  type Metrics,
  metricsSchema,
} from '../../../src/contract/conversations';
import {
  type AgentEvent,
  type ConversationState,
  type EventFilter,
  type EventPage,
  type EventSearchQuery,
  eventSchema,
  utcEventTime,
  stateUpdateEventSchema,
  type LiveText,
  streamingDeltaSchema,
  type TerminalOutput,
  terminalOutputSchema,
} from '../../../src/contract/events';
import { MAX_PAGE_SIZE } from '../../../src/contract/sandboxes';
import { Invalid, NotFound } from '../../domain-errors';
import { StoredJsonList, type WithStoredLists } from '../json-texts';
import type { Logger } from '../../logger';
import type { EventNotices, LiveNotice } from '../../store/event-notices';
import type { EventRecord, NewEvent } from '../../store/events-store';
import { normaliseId } from '../ids';
import { decodeCursor, encodeCursor } from '../conversations/page-cursor';
import { asSystem, type Caller, OWNER_ID, type Subject } from '../../authz/caller';
import type { DataAccess } from '../../authz/data-access';
import { storedEventJson } from './event-size';
import { keptOutput } from '../../../src/contract/running-output';

/** What a live listener of a conversation gets: a stored event (with its storage position), or a transient frame. */
export type LiveFrame =
  | { seq: number; event: AgentEvent }
  /** A stored event replayed as it is stored (its JSON text), not parsed and written again. */
  | { seq: number; stored: { id: string; body: string } }
  | { seq?: undefined; frame: ConversationState | LiveText };

type Listener = (frame: LiveFrame) => void;

interface Subscription {
  listener: Listener;
  /** Called when the conversation is closed (deleted): nothing more will come. */
  onClose?: () => void;
}

interface LiveState {
  executionStatus: ExecutionStatus | null;
  metrics: Metrics | null;
}

const RELAY = asSystem('relay events stored by other instances');
const RECEIVE = asSystem('receive events from a sandbox');

/** Stored events read at a time while a stream replays them (each up to MAX_EVENT_BYTES and its images). */
const REPLAY_BATCH = 32;
/** How much of a replay goes out before other requests get their turn. */
const REPLAY_SLICE_CHARS = 256 * 1024;
/**
 * The most live frames a stream holds while it replays what is stored: a reader that stops
 * reading mid-replay is dropped past it (it comes back with Last-Event-ID and misses nothing).
 */
const MAX_PENDING_FRAMES = 5000;

const toEvent = (record: EventRecord): AgentEvent => JSON.parse(record.body) as AgentEvent;
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A time as stored: UTC ISO to the microsecond; a time that cannot be read sorts as the moment it arrived. */
const storedTime = (timestamp: string): string => utcEventTime(timestamp) ?? utcEventTime(new Date().toISOString())!;

/**
 * Conversation events: stored once each (by id) in the order agent servers send them, searched
 * as OpenHands does, and followed live. Transient frames (state updates, streaming text) are
 * never stored: a state update sets the conversation's execution status (held in memory) and
 * metrics (stored with the conversation), and both kinds go to live listeners, on the other
 * instances too (PostgreSQL: their `EventNotices` relay them).
 */
export class EventService {
  readonly #subscriptions = new Map<string, Set<Subscription>>();
  readonly #live = new Map<string, LiveState>();
  /** The conversations whose `#live` state the owner of their agent (another instance) relayed. */
  readonly #relayedLive = new Set<string>();
  /** By followed conversation: the storage position of the last event sent to its listeners. */
  readonly #sentSeq = new Map<string, number>();
  readonly #catchUps = new Map<string, Promise<void>>();
  /** Per conversation, so the events of two senders (collector, webhook) are stored and sent in one order. */
  readonly #chains = new Map<string, Promise<void>>();
  /** Each conversation's user, once looked up (see `#ownerOf`). */
  readonly #owners = new Map<string, string>();
  /**
   * The output so far (its end) of the command each conversation runs (one at a time): a stream
   * that opens while it runs starts with it.
   */
  readonly #runningOutput = new Map<string, { actionId: string; output: string }>();

  constructor(
    private readonly data: DataAccess,
    private readonly log: Logger,
    /** What other instances store and relay (PostgreSQL); absent with SQLite. */
    private readonly notices?: EventNotices,
  ) {}

  /** Follows what other instances store, and what their running agents say, for the streams on this one. */
  async listenForNotices(): Promise<void> {
    await this.notices?.listen(
      (conversationId) => this.#catchUp(conversationId),
      () => {
        // Listening again: what was relayed meanwhile (a `null`, say) was missed, so what was received before may be stale.
        for (const conversationId of this.#relayedLive) this.#live.delete(conversationId);
        this.#relayedLive.clear();
        for (const conversationId of this.#subscriptions.keys()) this.#catchUp(conversationId);
      },
      (notices) => {
        for (const notice of notices) this.#relay(notice);
      },
    );
  }

  async stopNotices(): Promise<void> {
    await this.notices?.close();
  }

  /** Sends the listeners of a conversation what was stored after what they were sent (by another instance, say). */
  #catchUp(conversationId: string): void {
    this.#afterCatchUps(conversationId, async () => {
      for (;;) {
        const records = await this.data.as(RELAY).events.after(conversationId, this.#sentSeq.get(conversationId) ?? 0, REPLAY_BATCH);
        for (const record of records) this.#notify(conversationId, { seq: record.seq, event: toEvent(record) });
        if (records.length < REPLAY_BATCH) return;
      }
    });
  }

  /**
   * What the owner of a conversation's agent sent its own listeners, for this instance's: its
   * state is held as if received here (so the conversation shows it); each frame goes to listeners
   * after the events stored before it (announced before it), as on the owner.
   */
  #relay({ conversationId, frame }: LiveNotice): void {
    if (frame === null) {
      this.#live.delete(conversationId);
      this.#relayedLive.delete(conversationId);
    } else if (frame.kind === 'ConversationState') {
      this.#live.set(conversationId, { executionStatus: frame.execution_status, metrics: frame.metrics });
      this.#relayedLive.add(conversationId);
    } else if (frame.kind === 'TerminalOutput') this.#keepOutput(conversationId, frame);
    if (frame !== null) this.#afterCatchUps(conversationId, () => this.#notify(conversationId, { frame }));
  }

  /** Keeps the output so far of the command `frame` is a piece of (the only one the conversation runs). */
  #keepOutput(conversationId: string, frame: TerminalOutput): void {
    const kept = this.#runningOutput.get(conversationId);
    const before = kept?.actionId === frame.action_id ? kept.output : undefined;
    this.#runningOutput.set(conversationId, { actionId: frame.action_id, output: keptOutput(before, frame) });
  }

  /** Runs `work` for the listeners of a conversation (if any) after the catch-ups and relays before it. */
  #afterCatchUps(conversationId: string, work: () => Promise<void> | void): void {
    if (!this.#subscriptions.has(conversationId)) return;
    const previous = this.#catchUps.get(conversationId) ?? Promise.resolve();
    const next = previous.then(work);
    const tail = next.catch((error: unknown) => {
      this.log.warn({ conversation: conversationId, err: error }, 'could not notify listeners of what another instance stored or relayed');
    });
    this.#catchUps.set(conversationId, tail);
    void tail.then(() => {
      if (this.#catchUps.get(conversationId) === tail) this.#catchUps.delete(conversationId);
    });
  }

  /** Whose conversation it is (events are stored under its user); conversations never change hands. */
  async #ownerOf(subject: Subject, conversationId: string): Promise<string> {
    const record = await this.data.as(subject).conversations.get(conversationId);
    if (!record) return OWNER_ID; // gone: the events are dropped with no conversation to store them in
    this.#owners.set(conversationId, record.user_id);
    return record.user_id;
  }

  /**
   * Takes what an agent server sent for conversation `conversationId`, in order: events are stored
   * (those already stored are skipped), transient frames applied; live listeners are notified of each.
   * Frames that are no event at all are dropped (and logged).
   */
  receive(subject: Subject, conversationId: string, frames: unknown[]): Promise<void> {
    const previous = this.#chains.get(conversationId) ?? Promise.resolve();
    const next = previous.then(() => this.#receive(subject, conversationId, frames));
    const tail = next.catch(() => undefined);
    this.#chains.set(conversationId, tail);
    void tail.then(() => {
      if (this.#chains.get(conversationId) === tail) this.#chains.delete(conversationId);
    });
    return next;
  }

  async #receive(subject: Subject, conversationId: string, frames: unknown[]): Promise<void> {
    const data = this.data.as(subject);
    const owner = this.#owners.get(conversationId) ?? (await this.#ownerOf(subject, conversationId));
    let batch: NewEvent[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      // No microtask when nothing of this conversation is on its way (nor ever with SQLite).
      const relayed = this.notices?.sent(conversationId);
      if (relayed) await relayed;
      const inserted = await data.events.insertNew(batch);
      batch = [];
      for (const record of inserted) this.#notify(conversationId, { seq: record.seq, event: toEvent(record) });
    };
    for (const frame of frames) {
      const kind = (frame as { kind?: unknown } | null)?.kind;
      if (kind === 'ConversationStateUpdateEvent') {
        await flush();
        await this.#applyState(subject, conversationId, frame);
      } else if (kind === 'StreamingDelta') {
        await flush();
        const delta = streamingDeltaSchema.safeParse(frame);
        if (delta.success) this.#notifyLive(conversationId, delta.data);
      } else if (kind === 'TerminalOutput') {
        await flush();
        const output = terminalOutputSchema.safeParse(frame);
        if (!output.success) continue;
        this.#keepOutput(conversationId, output.data);
        this.#notifyLive(conversationId, output.data);
      } else {
        const event = eventSchema.safeParse(frame);
        if (!event.success) {
          this.log.warn({ conversation: conversationId, kind: typeof kind === 'string' ? kind : null }, 'dropped a frame that is no event');
          continue;
        }
        // Its observation holds the command's output: no longer running.
        const actionId = (event.data as { action_id?: unknown }).action_id;
        if (typeof actionId === 'string' && this.#runningOutput.get(conversationId)?.actionId === actionId) {
          this.#runningOutput.delete(conversationId);
        }
        batch.push({
          user_id: owner,
          conversation_id: conversationId,
          event_id: event.data.id,
          kind: event.data.kind,
          source: event.data.source,
          timestamp: storedTime(event.data.timestamp),
          body: storedEventJson(event.data),
        });
      }
    }
    await flush();
  }

  async #applyState(subject: Subject, conversationId: string, frame: unknown): Promise<void> {
    const update = stateUpdateEventSchema.safeParse(frame);
    if (!update.success) return;
    const { key, value } = update.data;
    const state = { ...(this.#live.get(conversationId) ?? { executionStatus: null, metrics: null }) };
    const readStatus = (v: unknown) => {
      const status = executionStatusSchema.safeParse(v);
      if (status.success) state.executionStatus = status.data;
    };
    const readMetrics = (v: unknown) => {
      const metrics = metricsSchema.safeParse(v);
      if (metrics.success && v !== null && v !== undefined) state.metrics = metrics.data;
    };
    // The SDK's agent server sends its metrics as `stats`; ours did as `metrics`, which stored histories keep.
    if (key === 'full_state' && typeof value === 'object' && value !== null) {
      const full = value as { execution_status?: unknown; stats?: unknown; metrics?: unknown };
      readStatus(full.execution_status);
      readMetrics(agentMetricsOf(full.stats) ?? full.metrics);
    } else if (key === 'execution_status') readStatus(value);
    else if (key === 'stats') readMetrics(agentMetricsOf(value));
    else if (key === 'metrics') readMetrics(value);
    else return;
    // No command runs in an agent that does not: what was kept of one that never ended goes.
    if (state.executionStatus !== 'running') this.#runningOutput.delete(conversationId);
    const before = this.#live.get(conversationId);
    this.#live.set(conversationId, state);
    this.#relayedLive.delete(conversationId);
    if (state.metrics && JSON.stringify(state.metrics) !== JSON.stringify(before?.metrics ?? null)) {
      await this.data.as(subject).conversations.update(conversationId, { metrics: JSON.stringify(state.metrics) });
    }
    this.#notifyLive(conversationId, {
      kind: 'ConversationState',
      conversation_id: conversationId,
      execution_status: state.executionStatus,
      metrics: state.metrics,
    });
  }

  /** A transient frame: to the listeners here, and to the other instances'. */
  #notifyLive(conversationId: string, frame: ConversationState | LiveText): void {
    this.#notify(conversationId, { frame });
    this.notices?.announce({ conversationId, frame });
  }

  #notify(conversationId: string, frame: LiveFrame): void {
    if (frame.seq !== undefined && this.#subscriptions.has(conversationId)) {
      this.#sentSeq.set(conversationId, Math.max(frame.seq, this.#sentSeq.get(conversationId) ?? 0));
    }
    for (const { listener } of this.#subscriptions.get(conversationId) ?? []) {
      try {
        listener(frame);
      } catch (error) {
        this.log.error({ conversation: conversationId, err: error }, 'a live event listener failed');
      }
    }
  }

  /** The execution status its agent server last sent (over the event socket); `undefined` when none is known now. */
  executionStatus(conversationId: string): ExecutionStatus | undefined {
    return this.#live.get(conversationId)?.executionStatus ?? undefined;
  }

  /** Forgets the live state of a conversation (its socket closed: what it said may be stale). */
  forgetLive(conversationId: string): void {
    this.#live.delete(conversationId);
    this.#relayedLive.delete(conversationId);
    this.notices?.announce({ conversationId, frame: null });
  }

  /**
   * Calls `listener` with every frame of conversation `conversationId` from now on, and `onClose`
   * if the conversation is closed; returns how to stop.
   */
  subscribe(conversationId: string, listener: Listener, onClose?: () => void): () => void {
    const subscriptions = this.#subscriptions.get(conversationId) ?? new Set<Subscription>();
    const subscription: Subscription = { listener, onClose };
    subscriptions.add(subscription);
    this.#subscriptions.set(conversationId, subscriptions);
    return () => {
      subscriptions.delete(subscription);
      if (subscriptions.size === 0 && this.#subscriptions.get(conversationId) === subscriptions) {
        this.#subscriptions.delete(conversationId);
        this.#sentSeq.delete(conversationId);
      }
    };
  }

  /** Conversation `conversationId` is gone: its live state is forgotten and its listeners are notified and let go. */
  close(conversationId: string): void {
    this.#live.delete(conversationId);
    this.#owners.delete(conversationId);
    this.#runningOutput.delete(conversationId);
    this.#relayedLive.delete(conversationId);
    const subscriptions = this.#subscriptions.get(conversationId);
    this.#subscriptions.delete(conversationId);
    for (const { onClose } of subscriptions ?? []) {
      try {
        onClose?.();
      } catch (error) {
        this.log.error({ conversation: conversationId, err: error }, 'a live event listener failed to close');
      }
    }
  }

  /** The stored id of a conversation the caller may see; NotFound otherwise. */
  async ensureConversation(caller: Caller, id: string): Promise<string> {
    const hex = normaliseId(id);
    if (!hex || !(await this.data.as(caller).conversations.get(hex))) throw new NotFound(msg`Conversation ${id} not found`);
    return hex;
  }

  /**
   * Follows conversation `conversationId` (a stored id, as `ensureConversation` returns it):
   * every stored event after `lastEventId` (all of them without it, or when that event is not one
   * of its), then each frame as it comes, with no gap and no event twice, until the conversation
   * is closed (`onClose`). Returns how to stop following.
   */
  async follow(
    caller: Caller,
    conversationId: string,
    lastEventId: string | undefined,
    send: (frame: LiveFrame) => void,
    onClose: () => void,
    ready: () => Promise<boolean> = () => Promise.resolve(true),
  ): Promise<() => void> {
    const events = this.data.as(caller).events;
    let sentSeq = (lastEventId ? await events.seqOf(conversationId, lastEventId) : undefined) ?? 0;
    let pending: LiveFrame[] | undefined = [];
    const deliver = (frame: LiveFrame) => {
      if (frame.seq !== undefined) {
        if (frame.seq <= sentSeq) return;
        sentSeq = frame.seq;
      }
      send(frame);
    };
    // Listening first, then reading what is stored: what arrives meanwhile waits, and what was read already is skipped.
    let overflowed = false;
    const stop = this.subscribe(
      conversationId,
      (frame) => {
        if (!pending) return deliver(frame);
        if (pending.length < MAX_PENDING_FRAMES) return void pending.push(frame);
        overflowed = true;
      },
      onClose,
    );
    // Taken as the listening starts: later pieces of the output come after it.
    const kept = this.#runningOutput.get(conversationId);
    const running: TerminalOutput[] = kept
      ? [{ kind: 'TerminalOutput', conversation_id: conversationId, action_id: kept.actionId, output: kept.output, whole: true }]
      : [];
    try {
      // A long history goes out as fast as the client reads it, a page in memory at a time, and
      // other requests are served between its pages.
      let sinceYield = 0;
      let gone = false;
      replay: for (;;) {
        const records = await events.after(conversationId, sentSeq, REPLAY_BATCH);
        for (const record of records) {
          deliver({ seq: record.seq, stored: { id: record.event_id, body: record.body } });
          gone = !(await ready()) || overflowed;
          if (gone) break replay;
          sinceYield += record.body.length;
          if (sinceYield >= REPLAY_SLICE_CHARS) {
            sinceYield = 0;
            await yieldToOthers();
          }
        }
        if (records.length < REPLAY_BATCH) break;
      }
      if (gone) {
        stop();
        onClose();
        return stop;
      }
    } catch (error) {
      stop();
      throw error;
    }
    for (const output of running) deliver({ frame: output });
    const waiting = pending;
    pending = undefined;
    for (const frame of waiting) deliver(frame);
    this.#sentSeq.set(conversationId, Math.max(sentSeq, this.#sentSeq.get(conversationId) ?? 0));
    return stop;
  }

  /** A page whose events are their stored texts (see StoredJsonList). */
  async search(caller: Caller, query: EventSearchQuery): Promise<WithStoredLists<EventPage>> {
    const descending = query.sort_order === 'TIMESTAMP_DESC';
    const decoded = decodeCursor(query.sort_order, query.page_id);
    const seq = decoded ? Number(decoded.id) : undefined;
    if (decoded && !Number.isSafeInteger(seq)) throw new Invalid(['page_id'], msg`Not a page id this server gave out`, query.page_id);
    const cursor = decoded && seq !== undefined ? { timestamp: decoded.value, seq } : undefined;
    const { rows, more } = await this.data.as(caller).events.search(query, descending, cursor, query.limit);
    const last = rows.at(-1);
    return {
      items: new StoredJsonList<AgentEvent>(rows.map((row) => row.body)),
      next_page_id: more && last ? encodeCursor(query.sort_order, { value: last.timestamp, id: String(last.seq) }) : null,
    };
  }

  count(caller: Caller, filter: EventFilter): Promise<number> {
    return this.data.as(caller).events.count(filter);
  }

  /** In request order, `null` for an id that is not stored. */
  async getMany(caller: Caller, ids: string[]): Promise<(AgentEvent | null)[]> {
    if (ids.length > MAX_PAGE_SIZE)
      throw new Invalid(['id'], msg`Cannot request more than ${MAX_PAGE_SIZE} events at once, got ${ids.length}`);
    const byId = new Map<string, AgentEvent>();
    for (const record of await this.data.as(caller).events.getMany([...new Set(ids)])) {
      if (!byId.has(record.event_id)) byId.set(record.event_id, toEvent(record));
    }
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** Events pushed to the webhook by sandbox `sandboxId` for one of its conversations (its key is the proof, not a user's). */
  async receiveFromSandbox(sandboxId: string, conversationId: string, events: unknown[]): Promise<void> {
    const hex = normaliseId(conversationId);
    const record = hex ? await this.data.as(RECEIVE).conversations.get(hex) : undefined;
    if (!hex || !record || record.sandbox_id !== sandboxId) {
      throw new NotFound(msg`Conversation ${conversationId} not found in sandbox ${sandboxId}`);
    }
    await this.receive(RECEIVE, hex, events);
  }
}
