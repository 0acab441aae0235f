import WebSocket from 'ws';
import type { Logger } from '../../logger';
import { exponentialBackoff } from '../../retry';
import { SESSION_KEY_HEADER } from '../../session-key';
import type { ConversationRecord } from '../../store/conversations-store';
import { asSystem } from '../../authz/caller';
import type { DataAccess } from '../../authz/data-access';
import { type AgentConversations, type AgentEndpoint, agentEndpoint } from '../conversations/agent-conversations';
import type { EventService } from './event-service';
import type { SandboxService } from '../sandboxes/sandbox-service';

const COLLECT = asSystem('collect events');

/** How often it looks for conversations to connect to or let go (sandboxes started, paused, resumed, deleted). */
const ROUND_MS = 500;
/** The waits before connecting again after failures in a row (taken at the sync after it). */
const RECONNECT_BACKOFF = exponentialBackoff(500, 10_000);
/** The agent server's close code for a conversation it does not know (its sandbox restarted). */
const UNKNOWN_CONVERSATION = 4004;

interface Connection {
  socket: WebSocket;
  endpoint: AgentEndpoint;
  closed: Promise<void>;
  /** Let go on purpose (its conversation deleted): once closed, it is neither retried nor created again. */
  dropped: boolean;
  /** When each frame received and not stored yet came (ms), oldest first. */
  pending: number[];
}

/** How far behind collection is on this instance (see `EventCollector.progress`). */
export interface CollectionProgress {
  /** The conversations of this instance's running sandboxes, whose events it collects (as of its last round). */
  conversations: string[];
  /** The longest any of them has had events that may not be stored: 0 when each one's socket is open and all it sent is stored. */
  lagMs: number;
  /** When its last round ended without failing (ms); `undefined` before the first. */
  lastRoundAt: number | undefined;
}

/** What keeps failing for a conversation: each kind is warned of once, then logged at debug. */
type FailureKind = 'connect' | 'recreate' | 'store';

const sameEndpoint = (a: AgentEndpoint, b: AgentEndpoint) => a.url === b.url && a.key === b.key;

/**
 * The largest frame read from an agent server (sandbox code): a larger one ends the connection
 * (reading it would hold the server's memory and event loop); events are cut far below it anyway.
 */
const MAX_FRAME_BYTES = 4 * 1024 * 1024;

/**
 * Keeps one event WebSocket per conversation whose sandbox is RUNNING and stores what comes, so
 * every event is stored once, in order, whatever restarts: each (re)connection asks for every
 * event again (`resend_all`), and the store skips those it has. A paused sandbox's socket is
 * dropped and opened again after the resume; a conversation its agent server no longer knows is
 * created there again. The session key goes in a header, never in a URL or a log line.
 */
export class EventCollector {
  readonly #connections = new Map<string, Connection>();
  /** Conversations not to connect to before this time (ms), after a failed connection. */
  readonly #retryAt = new Map<string, { at: number; failures: number }>();
  readonly #recreating = new Set<string>();
  /** The failure kinds already warned of, per conversation, since a connection last worked. */
  readonly #warned = new Map<string, Set<FailureKind>>();
  /**
   * Per conversation, since when (ms) what its agent server sends may not be stored: it had no
   * working socket (none yet, or one that closed), or frames received were never stored. Cleared
   * by the first frame of a new socket; what that socket sends is then `Connection.pending`.
   */
  readonly #uncollectedSince = new Map<string, number>();
  /** The conversations the last round found in running sandboxes. */
  #collecting: ReadonlySet<string> = new Set();
  #lastRoundAt: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #sync: Promise<void> | undefined;
  /** The round asked for while one was under way: it runs after that one, once for every ask. */
  #nextSync: Promise<void> | undefined;
  #closed = false;

  constructor(
    private readonly sandboxes: SandboxService,
    private readonly data: DataAccess,
    private readonly events: EventService,
    private readonly agents: AgentConversations,
    private readonly log: Logger,
    private readonly roundMs = ROUND_MS,
  ) {}

  /** Connects to every conversation of running sandboxes (catching up what they did meanwhile), then keeps watching. */
  async start(): Promise<void> {
    this.#closed = false;
    this.#timer ??= setInterval(() => void this.sync(), this.roundMs);
    this.#timer.unref();
    await this.sync();
  }

  /** Closes every socket and stops watching. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#sync;
    const closing = [...this.#connections.values()];
    for (const connection of closing) connection.socket.terminate();
    await Promise.all(closing.map((connection) => connection.closed));
  }

  /**
   * Lets go of conversation `conversationId` at once (it is being deleted): its socket closes
   * and is not opened again, and what it had sent but not yet stored is not stored.
   */
  drop(conversationId: string): void {
    const connection = this.#connections.get(conversationId);
    if (connection) {
      connection.dropped = true;
      connection.socket.terminate();
    }
    this.#forget(conversationId);
  }

  #forget(conversationId: string): void {
    this.#retryAt.delete(conversationId);
    this.#warned.delete(conversationId);
    this.#uncollectedSince.delete(conversationId);
  }

  /**
   * How far behind collection is now: of the conversations the last round found in this
   * instance's running sandboxes, the longest one has gone with events possibly not stored (no
   * socket open and working, or frames received and not stored yet), and when a round last ended.
   */
  progress(now = Date.now()): CollectionProgress {
    let oldest = now;
    for (const id of this.#collecting) {
      oldest = Math.min(oldest, this.#uncollectedSince.get(id) ?? now, this.#connections.get(id)?.pending[0] ?? now);
    }
    return { conversations: [...this.#collecting], lagMs: now - oldest, lastRoundAt: this.#lastRoundAt };
  }

  /** Looks at once for what changed (a conversation just started), instead of at the next round; nothing before `start`. */
  lookNow(): void {
    if (this.#timer) void this.sync();
  }

  /**
   * One round: connects where it should, lets go where it should not. Asked while one is under
   * way (which may have read before what the caller knows of), it resolves after the round that
   * comes next.
   */
  sync(): Promise<void> {
    if (this.#sync)
      return (this.#nextSync ??= this.#sync.then(() => {
        this.#nextSync = undefined;
        return this.sync();
      }));
    this.#sync = this.#round()
      .catch((error: unknown) => this.log.warn({ err: error }, 'a round of event collection failed'))
      .finally(() => {
        this.#sync = undefined;
      });
    return this.#sync;
  }

  async #round(): Promise<void> {
    if (this.#closed) return;
    const endpoints = await this.#runningEndpoints();
    const records = await this.data.as(COLLECT).conversations.inSandboxes([...endpoints.keys()]);
    if (this.#closed) return;
    const wanted = new Map(records.map((record) => [record.id, record]));
    this.#collecting = new Set(wanted.keys());
    // Conversations deleted, or of sandboxes no longer running, start afresh if they come back.
    for (const id of new Set([...this.#retryAt.keys(), ...this.#warned.keys(), ...this.#uncollectedSince.keys()]))
      if (!wanted.has(id)) this.#forget(id);
    for (const [id, connection] of this.#connections) {
      const record = wanted.get(id);
      const endpoint = record && endpoints.get(record.sandbox_id);
      if (!endpoint || !sameEndpoint(endpoint, connection.endpoint)) connection.socket.terminate();
    }
    const now = Date.now();
    for (const record of records) {
      const endpoint = endpoints.get(record.sandbox_id);
      if (!endpoint || this.#connections.has(record.id) || this.#recreating.has(record.id)) continue;
      if ((this.#retryAt.get(record.id)?.at ?? 0) > now) continue;
      this.#connect(record, endpoint);
    }
    this.#lastRoundAt = Date.now();
  }

  /** The agent server of each RUNNING sandbox, by sandbox id. */
  async #runningEndpoints(): Promise<Map<string, AgentEndpoint>> {
    const endpoints = new Map<string, AgentEndpoint>();
    let pageId: string | undefined;
    do {
      // Another instance collects from the sandboxes it runs.
      const page = await this.sandboxes.searchOwn(COLLECT, { status__eq: 'RUNNING', limit: 100, page_id: pageId });
      for (const sandbox of page.items) {
        const endpoint = agentEndpoint(sandbox);
        if (endpoint) endpoints.set(sandbox.id, endpoint);
      }
      pageId = page.next_page_id ?? undefined;
    } while (pageId);
    return endpoints;
  }

  #connect(record: ConversationRecord, endpoint: AgentEndpoint): void {
    const id = record.id;
    if (!this.#uncollectedSince.has(id)) this.#uncollectedSince.set(id, Date.now());
    const url = `${endpoint.url.replace(/^http/, 'ws')}/sockets/events/${id}?resend_all=true`;
    const socket = new WebSocket(url, { headers: { [SESSION_KEY_HEADER]: endpoint.key }, maxPayload: MAX_FRAME_BYTES });
    let unknown = false;
    let refusal: string | undefined;
    // Frames are stored one after the other; after a failure none is: the next connection sends them all again, in order.
    let storing = Promise.resolve();
    let storeFailed = false;
    const closed = new Promise<void>((resolve) => {
      socket.on('close', (code) => {
        this.#connections.delete(id);
        this.events.forgetLive(id);
        if (code === UNKNOWN_CONVERSATION) unknown = true;
        resolve();
        if (this.#closed || connection.dropped) return;
        // What it sent and was not stored, and what it would have sent since, is behind from then on.
        if (!this.#uncollectedSince.has(id)) this.#uncollectedSince.set(id, Math.min(Date.now(), connection.pending[0] ?? Infinity));
        if (unknown) void this.#recreate(record, endpoint);
        else this.#backOff(id, refusal);
      });
    });
    let received = false;
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      // Known at its first frame (one it does not know opens, then closes with 4004): failures in a row end here.
      if (!received) {
        received = true;
        this.#retryAt.delete(id);
        this.#warned.delete(id);
        this.#uncollectedSince.delete(id);
        this.log.debug({ conversation: id, sandbox: record.sandbox_id }, 'collecting the events of a conversation');
      }
      let frame: unknown;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        this.log.warn({ conversation: id }, 'an agent server sent a frame that is not JSON');
        return;
      }
      connection.pending.push(Date.now());
      storing = storing.then(async () => {
        if (storeFailed || connection.dropped) return;
        try {
          await this.events.receive(COLLECT, id, [frame]);
          connection.pending.shift();
        } catch (error) {
          storeFailed = true;
          socket.terminate();
          if (connection.dropped) return; // its conversation is gone: nothing to store it in
          this.#warnOnce(id, 'store', { err: error }, 'could not store an event of a conversation; collecting its events again');
        }
      });
    });
    socket.on('error', (error) => {
      // A frame it refuses (too large, not the protocol): no close handshake with a peer that broke it, which could go on sending meanwhile.
      if (socket.readyState === WebSocket.CLOSING) socket.terminate();
      // Before the upgrade, the agent server responds like any HTTP server: 404 for a conversation it does not know.
      const status = /Unexpected server response: (\d+)/.exec(error.message)?.[1];
      if (status === '404') unknown = true;
      else refusal = status ? `HTTP ${status}` : error.message;
    });
    const connection: Connection = { socket, endpoint, closed, dropped: false, pending: [] };
    this.#connections.set(id, connection);
  }

  /** Waits longer after each failure in a row before connecting again. */
  #backOff(id: string, refusal: string | undefined): void {
    const failures = (this.#retryAt.get(id)?.failures ?? 0) + 1;
    this.#retryAt.set(id, { at: Date.now() + RECONNECT_BACKOFF(failures), failures });
    if (refusal && failures >= 3) this.#warnOnce(id, 'connect', { reason: refusal }, "cannot connect to a conversation's event socket");
  }

  /** A failure that may repeat every round: a warning the first time, debug lines after. */
  #warnOnce(id: string, kind: FailureKind, details: object, message: string): void {
    const warned = this.#warned.get(id) ?? new Set<FailureKind>();
    this.#warned.set(id, warned);
    const level = warned.has(kind) ? 'debug' : 'warn';
    warned.add(kind);
    this.log[level]({ conversation: id, ...details }, message);
  }

  async #recreate(record: ConversationRecord, endpoint: AgentEndpoint): Promise<void> {
    this.#recreating.add(record.id);
    try {
      await this.agents.recreate(record, endpoint);
    } catch (error) {
      this.#warnOnce(record.id, 'recreate', { err: error }, 'could not create a conversation again in its agent server');
    } finally {
      // Until a connection opens, each try waits longer: an agent server that never knows it is not asked in a loop.
      this.#backOff(record.id, undefined);
      this.#recreating.delete(record.id);
    }
    if (!this.#closed) void this.sync();
  }
}
