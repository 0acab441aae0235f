import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import * as z from 'zod/mini';
import { type ConversationState, conversationStateSchema, type StreamingDelta, streamingDeltaSchema } from '../../src/contract/events';
import type { Logger } from '../logger';
import type { Db } from './database';

/** The PostgreSQL channel on which a stored event is announced (its payload: the conversation id). */
export const EVENTS_CHANNEL = 'conversation_events';
/** The channel on which the owner of a running agent relays what is never stored (see `LiveNotice`). */
export const LIVE_CHANNEL = 'conversation_live';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7_999;
/** A longer delta is not cut into pieces smaller than this: it is dropped instead. */
const MIN_PIECE_BYTES = 64;

const RECONNECT_MS = 1_000;

/**
 * A frame a running agent's owner told its own streams (a conversation's state, streaming text),
 * or `frame: null`: what it said of that conversation may be stale now (its socket closed).
 */
export interface LiveNotice {
  conversationId: string;
  frame: ConversationState | StreamingDelta | null;
}

type OnNotice = (conversationId: string) => void;
type OnLive = (notices: LiveNotice[]) => void;

const liveNoticeSchema = z.object({
  conversationId: z.string(),
  frame: z.nullable(z.union([conversationStateSchema, streamingDeltaSchema])),
});
const livePayloadSchema = z.object({ from: z.string(), notices: z.array(liveNoticeSchema) });

const bytes = (text: string) => Buffer.byteLength(text);

/**
 * `notice` as it can go in payloads of `room` bytes: itself, or a delta too long cut into
 * deltas of the same response (their text is the concatenation of all of them); none when even
 * that cannot fit (a state frame is a few hundred bytes).
 */
function fitted(notice: LiveNotice, room: number): LiveNotice[] {
  if (bytes(JSON.stringify(notice)) <= room) return [notice];
  const frame = notice.frame;
  if (frame?.kind !== 'StreamingDelta') return [];
  const budget = room - bytes(JSON.stringify({ ...notice, frame: { ...frame, delta: '' } }));
  if (budget < MIN_PIECE_BYTES) return [];
  const pieces: string[] = [];
  let piece = '';
  let used = 0;
  for (const character of frame.delta) {
    const size = bytes(JSON.stringify(character)) - 2; // as escaped in JSON, without its quotes
    if (used + size > budget) {
      pieces.push(piece);
      [piece, used] = ['', 0];
    }
    piece += character;
    used += size;
  }
  pieces.push(piece);
  return pieces.map((delta) => ({ ...notice, frame: { ...frame, delta } }));
}

/** `notices` in order, in as few NOTIFY payloads as fit; answers those that cannot go at all. */
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
 * Hears, over LISTEN on a connection of its own, of events any instance stored, so a console's
 * stream on one instance gets what another collected. A dropped connection is made again; what
 * was announced meanwhile is caught up by `onResume`. Once closed, no connection stays or comes.
 *
 * What is never stored (a running agent's state, its streaming text) goes from the owner of its
 * sandbox to the others as it comes (`announce`), in order, several frames a NOTIFY when they come
 * faster than one is sent. A notice missed while the connection was down is not caught up: the
 * next state frame says all there is to know.
 */
export class EventNotices {
  #client: pg.Client | undefined;
  #reconnect: NodeJS.Timeout | undefined;
  #closed = false;
  /** Tells this instance's own notices from the others'. */
  readonly #from = randomUUID();
  #outbox: LiveNotice[] = [];
  #sending: Promise<void> | undefined;
  #sendFailing = false;

  constructor(
    private readonly url: string,
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  async listen(onNotice: OnNotice, onResume: () => void, onLive: OnLive = () => undefined): Promise<void> {
    const client = await this.#connect(onNotice, onLive);
    client.on('end', () => this.#reconnectLater(onNotice, onResume, onLive));
  }

  /** Sends `notice` to the other instances' `onLive`, after those announced before it. */
  announce(notice: LiveNotice): void {
    if (this.#closed) return;
    this.#outbox.push(notice);
    this.#flush();
  }

  /**
   * Once every notice announced so far is sent: an event stored after them is then announced
   * after them too, so the others stream both in the order this one did (a reply's streaming text
   * before its stored message, which replaces that text).
   */
  async sent(): Promise<void> {
    while (this.#sending) await this.#sending;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#reconnect);
    await this.#client?.end();
    await this.#sending;
  }

  /** One NOTIFY round at a time, so they arrive in order; what comes meanwhile goes in the next. */
  #flush(): void {
    // Once closed, what is left goes nowhere: the pool it would go through is closing too.
    if (this.#closed || this.#sending || this.#outbox.length === 0) return;
    const notices = this.#outbox.splice(0);
    this.#sending = this.#send(notices).finally(() => {
      this.#sending = undefined;
      this.#flush();
    });
  }

  async #send(notices: LiveNotice[]): Promise<void> {
    const { payloads, dropped } = livePayloads(this.#from, notices);
    for (const notice of dropped) {
      this.log.warn({ conversation: notice.conversationId, kind: notice.frame?.kind }, 'a live frame too large for NOTIFY was not relayed');
    }
    try {
      for (const payload of payloads) await sql`SELECT pg_notify(${LIVE_CHANNEL}, ${payload})`.execute(this.db);
      this.#sendFailing = false;
    } catch (error) {
      // Every delta would log it while the database is away: once until a send works again.
      if (!this.#sendFailing) this.log.warn({ err: error }, 'could not relay live frames to the other instances');
      this.#sendFailing = true;
    }
  }

  #received(payload: string, onLive: OnLive): void {
    let parsed: z.output<typeof livePayloadSchema> | undefined;
    try {
      const result = livePayloadSchema.safeParse(JSON.parse(payload));
      parsed = result.success ? result.data : undefined;
    } catch {
      // not ours: dropped below
    }
    if (!parsed) this.log.warn('dropped a live notice that is not one');
    else if (parsed.from !== this.#from) onLive(parsed.notices);
  }

  /** A connection that LISTENs; none is left open when that fails or `close` came meanwhile. */
  async #connect(onNotice: OnNotice, onLive: OnLive): Promise<pg.Client> {
    if (this.#closed) throw new Error('Event notices are closed');
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      if (!message.payload) return;
      if (message.channel === EVENTS_CHANNEL) onNotice(message.payload);
      else if (message.channel === LIVE_CHANNEL) this.#received(message.payload, onLive);
    });
    client.on('error', (error) => this.log.warn({ err: error }, 'the connection that hears of new events failed'));
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
    this.#reconnect = setTimeout(() => {
      if (this.#closed) return;
      this.listen(onNotice, onResume, onLive).then(onResume, (error: unknown) => {
        if (this.#closed) return;
        this.log.warn({ err: error }, 'could not listen for new events again');
        this.#reconnectLater(onNotice, onResume, onLive);
      });
    }, RECONNECT_MS);
    this.#reconnect.unref();
  }
}
