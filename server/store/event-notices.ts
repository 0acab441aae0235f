import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import * as z from 'zod/mini';
import {
  type ConversationState,
  conversationStateSchema,
  type LiveText,
  liveTextField,
  streamingDeltaSchema,
  terminalOutputSchema,
} from '../../src/contract/events';
import type { Logger } from '../logger';
import { constantBackoff, retry } from '../retry';
import { postgresClient } from './postgres-client';

/** The PostgreSQL channel on which a stored event is announced (its payload: the conversation id). */
export const EVENTS_CHANNEL = 'conversation_events';
/** The channel on which the owner of a running agent relays what is never stored (see `LiveNotice`). */
export const LIVE_CHANNEL = 'conversation_live';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7_999;
/** A longer delta is not cut into pieces smaller than this: it is dropped instead. */
const MIN_PIECE_BYTES = 64;

const RECONNECT_MS = 1_000;
/** How long a NOTIFY (or the LISTEN) may take before it counts as failed: the connection hangs, say. */
const QUERY_TIMEOUT_MS = 2_000;
/** How long storing an event waits for the relay of what came before it: storing matters more than order. */
const SENT_WAIT_MS = 1_000;
/** Notices waiting for their round beyond this: deltas are dropped, each conversation's latest state kept. */
const MAX_WAITING = 1_000;
/** The SQLSTATE of a statement that ran past its `statement_timeout`. */
const QUERY_CANCELED = '57014';
/** Names the session in pg_stat_activity. */
const SESSION_NAME = 'agent-console notices';

/**
 * A frame a running agent's owner sent its own streams (a conversation's state, streaming text),
 * or `frame: null`: what it said of that conversation may be stale now (its socket closed).
 */
export interface LiveNotice {
  conversationId: string;
  frame: ConversationState | LiveText | null;
}

type OnNotice = (conversationId: string) => void;
type OnLive = (notices: LiveNotice[]) => void;

const liveNoticeSchema = z.object({
  conversationId: z.string(),
  frame: z.nullable(z.union([conversationStateSchema, streamingDeltaSchema, terminalOutputSchema])),
});
const livePayloadSchema = z.object({ from: z.string(), notices: z.array(liveNoticeSchema) });

const bytes = (text: string) => Buffer.byteLength(text);

const isLiveText = (frame: LiveNotice['frame']): frame is LiveText => frame?.kind === 'StreamingDelta' || frame?.kind === 'TerminalOutput';

/** Settles when `promise` does, or after `ms` at the latest. */
function atMost(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Notices that go out together, one NOTIFY round; `done` once they went (or failed to). */
interface Round {
  notices: LiveNotice[];
  done: Promise<void>;
  finish: () => void;
}

function newRound(): Round {
  let finish = () => undefined as void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { notices: [], done, finish };
}

/**
 * `notice` as it can go in payloads of `room` bytes: itself, or a piece of text too long (a reply's
 * delta, a command's output) cut into pieces of the same text (it is the concatenation of all of
 * them); none when even that cannot fit (a state frame is a few hundred bytes).
 */
function fitted(notice: LiveNotice, room: number): LiveNotice[] {
  if (bytes(JSON.stringify(notice)) <= room) return [notice];
  const frame = notice.frame;
  if (!isLiveText(frame)) return [];
  const field = liveTextField(frame);
  const budget = room - bytes(JSON.stringify({ ...notice, frame: { ...frame, [field]: '' } }));
  if (budget < MIN_PIECE_BYTES) return [];
  const pieces: string[] = [];
  let piece = '';
  let used = 0;
  for (const character of frame.kind === 'StreamingDelta' ? frame.delta : frame.output) {
    const size = bytes(JSON.stringify(character)) - 2; // as escaped in JSON, without its quotes
    if (used + size > budget) {
      pieces.push(piece);
      [piece, used] = ['', 0];
    }
    piece += character;
    used += size;
  }
  pieces.push(piece);
  return pieces.map((text) => ({ ...notice, frame: { ...frame, [field]: text } as LiveText }));
}

/** `notices` in order, in as few NOTIFY payloads as fit; returns those that cannot go at all. */
export function livePayloads(from: string, notices: LiveNotice[]): { payloads: string[]; dropped: LiveNotice[] } {
  const wrapper = bytes(JSON.stringify({ from, notices: [] }));
  const room = MAX_PAYLOAD_BYTES - wrapper;
  const payloads: string[] = [];
  const dropped: LiveNotice[] = [];
  let batch: string[] = [];
  let used = 0;
  const send = () => {
    if (batch.length > 0) payloads.push(`{"from":${JSON.stringify(from)},"notices":[${batch.join(',')}]}`);
    [batch, used] = [[], 0];
  };
  for (const notice of notices) {
    const pieces = fitted(notice, room);
    if (pieces.length === 0) dropped.push(notice);
    for (const piece of pieces) {
      const text = JSON.stringify(piece);
      if (batch.length > 0 && used + 1 + bytes(text) > room) send();
      used += bytes(text) + (batch.length > 0 ? 1 : 0); // and its comma
      batch.push(text);
    }
  }
  send();
  return { payloads, dropped };
}

/**
 * Receives, over LISTEN on a connection of its own, notices of events any instance stored, so a
 * console's stream on one instance gets what another collected. A dropped connection is made again; what
 * was announced meanwhile is caught up by `onResume`. Once closed, no connection stays or comes.
 *
 * What is never stored (a running agent's state, its streaming text) goes from the owner of its
 * sandbox to the others as it comes (`announce`), in order, several frames a NOTIFY when they come
 * faster than one is sent, over that same connection (not the pool: a busy pool must not hold
 * them up, nor they it). A notice missed while the connection was down is not caught up: the
 * next state frame says all there is to know.
 */
export class EventNotices {
  #client: pg.Client | undefined;
  readonly #closing = new AbortController();
  #closed = false;
  /** Distinguishes this instance's own notices from the others'. */
  readonly #from = randomUUID();
  /** How each payload of this instance's begins (see `livePayloads`): its own are dropped unread. */
  readonly #ownPrefix = `{"from":${JSON.stringify(this.#from)},`;
  /** The notices announced while a round is out: they go in the next. */
  #waiting: Round | undefined;
  #sending: Round | undefined;
  /** By conversation: the round that carries the last notice announced of it, until that round is done. */
  readonly #lastRound = new Map<string, Round>();
  #sendFailing = false;
  #overflowing = false;

  constructor(
    private readonly url: string,
    private readonly log: Logger,
  ) {}

  async listen(onNotice: OnNotice, onResume: () => void, onLive: OnLive = () => undefined): Promise<void> {
    const client = await this.#connect(onNotice, onLive);
    client.on('end', () => this.#reconnectLater(onNotice, onResume, onLive));
  }

  /** Sends `notice` to the other instances' `onLive`, after those announced before it. */
  announce(notice: LiveNotice): void {
    if (this.#closed) return;
    const round = (this.#waiting ??= newRound());
    if (round.notices.length >= MAX_WAITING && !this.#makeRoom(round, notice)) return;
    round.notices.push(notice);
    this.#lastRound.set(notice.conversationId, round);
    this.#flush();
  }

  /**
   * Once the notices announced so far of conversation `conversationId` are sent (`undefined` when
   * none is on its way): an event of it stored after them is then announced after them too, so the
   * others stream both in the order this one did (a reply's streaming text before its stored
   * message, which replaces that text). Not longer than `SENT_WAIT_MS`, though: a relay that hangs
   * must not stop events being stored.
   */
  sent(conversationId: string): Promise<void> | undefined {
    const round = this.#lastRound.get(conversationId);
    return round && atMost(round.done, SENT_WAIT_MS);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.abort();
    // What is left goes nowhere: the connection it would go through is ending.
    this.#waiting?.finish();
    this.#waiting = undefined;
    this.#lastRound.clear();
    // A connection that hangs never ends cleanly: its socket is left to TCP keepalive then.
    const ended = this.#client?.end().catch(() => undefined);
    if (ended) await atMost(ended, QUERY_TIMEOUT_MS);
    await this.#sending?.done;
  }

  /**
   * A full outbox (the database is slow or away): a piece of text is dropped (the stored message or
   * observation replaces it), a state or `null` replaces the ones waiting of its conversation.
   * Returns whether `notice` goes in.
   */
  #makeRoom(round: Round, notice: LiveNotice): boolean {
    if (!this.#overflowing) this.log.warn('live frames come faster than they can be relayed: some are dropped');
    this.#overflowing = true;
    if (isLiveText(notice.frame)) return false;
    round.notices = round.notices.filter((waiting) => waiting.conversationId !== notice.conversationId || isLiveText(waiting.frame));
    return true;
  }

  /** One NOTIFY round at a time, so they arrive in order; what comes meanwhile goes in the next. */
  #flush(): void {
    const round = this.#waiting;
    if (this.#closed || this.#sending || !round) return;
    [this.#waiting, this.#sending] = [undefined, round];
    void this.#send(round.notices).finally(() => {
      round.finish();
      for (const { conversationId } of round.notices) {
        if (this.#lastRound.get(conversationId) === round) this.#lastRound.delete(conversationId);
      }
      this.#sending = undefined;
      this.#flush();
    });
  }

  /**
   * A round's payloads one after the other (so they arrive in order), each failing on its own; a
   * failing connection (no response within `QUERY_TIMEOUT_MS`, say) ends the round: the rest would
   * wait for it too.
   */
  async #send(notices: LiveNotice[]): Promise<void> {
    const { payloads, dropped } = livePayloads(this.#from, notices);
    for (const notice of dropped) {
      this.log.warn({ conversation: notice.conversationId, kind: notice.frame?.kind }, 'a live frame too large for NOTIFY was not relayed');
    }
    const client = this.#client;
    let failure: unknown;
    for (const payload of payloads) {
      try {
        if (!client) throw new Error('not listening');
        await client.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, payload]);
      } catch (error) {
        failure = error;
        // PostgreSQL refused this payload: the next may go. Anything else (a timeout) is the connection's.
        if (!(error instanceof (await postgresClient()).DatabaseError) || error.code === QUERY_CANCELED) break;
      }
    }
    if (failure === undefined) {
      [this.#sendFailing, this.#overflowing] = [false, false];
    } else if (!this.#sendFailing && !this.#closed) {
      // Every delta would log it while the database is away: once until a round goes out whole again.
      this.log.warn({ err: failure }, 'could not relay live frames to the other instances');
      this.#sendFailing = true;
    }
  }

  #received(payload: string, onLive: OnLive): void {
    if (payload.startsWith(this.#ownPrefix)) return;
    let parsed: z.output<typeof livePayloadSchema> | undefined;
    try {
      const result = livePayloadSchema.safeParse(JSON.parse(payload));
      parsed = result.success ? result.data : undefined;
    } catch {
      // not ours: dropped below
    }
    if (!parsed) this.log.warn('dropped a live notice that is not one');
    else onLive(parsed.notices);
  }

  /** A connection that LISTENs; none is left open when that fails or `close` came meanwhile. */
  async #connect(onNotice: OnNotice, onLive: OnLive): Promise<pg.Client> {
    if (this.#closed) throw new Error('Event notices are closed');
    const client = new (await postgresClient()).Client({
      connectionString: this.url,
      application_name: SESSION_NAME,
      keepAlive: true,
      keepAliveInitialDelayMillis: 20_000,
      statement_timeout: QUERY_TIMEOUT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
    });
    client.on('notification', (message) => {
      if (!message.payload) return;
      if (message.channel === EVENTS_CHANNEL) onNotice(message.payload);
      else if (message.channel === LIVE_CHANNEL) this.#received(message.payload, onLive);
    });
    client.on('error', (error) => this.log.warn({ err: error }, 'the connection that receives notices of new events failed'));
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}; LISTEN ${LIVE_CHANNEL}`);
      // A `close` while it connected did not end it (pg never settles a connect ended midway): it ends here.
      if (this.#closed) throw new Error('Event notices are closed');
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.#client = client;
    return client;
  }

  #reconnectLater(onNotice: OnNotice, onResume: () => void, onLive: OnLive): void {
    if (this.#closed) return;
    const listenAgain = () =>
      this.listen(onNotice, onResume, onLive).catch((error: unknown) => {
        if (!this.#closed) this.log.warn({ err: error }, 'could not listen for new events again');
        throw error;
      });
    const waits = { waitFirst: true, signal: this.#closing.signal, keepAlive: false };
    retry(listenAgain, constantBackoff(RECONNECT_MS), waits).then(onResume, () => undefined); // closed while waiting
  }
}
