import type { FastifyReply } from 'fastify';
import type { LiveFrame } from '../services/events/event-service';

/** A comment line now and then keeps proxies and browsers from dropping a quiet stream. */
const HEARTBEAT_MS = 15_000;

/**
 * The most one stream may hold for a client that does not read as fast as frames come: past it
 * the stream is dropped, freeing what it held; the client comes back with Last-Event-ID and
 * misses nothing.
 */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** One frame in `text/event-stream`: a stored event with its id (so a client can resume), a transient one without. */
export function sseFrame(frame: LiveFrame): string {
  if (frame.seq === undefined) return `data: ${JSON.stringify(frame.frame)}\n\n`;
  // An id is one line: a line break in it would end the field.
  if ('stored' in frame) return `id: ${oneLine(frame.stored.id)}\ndata: ${oneLineJson(frame.stored.body)}\n\n`;
  return `id: ${oneLine(frame.event.id)}\ndata: ${JSON.stringify(frame.event)}\n\n`;
}

const oneLine = (text: string) => text.replace(/[\r\n]/g, '');
/** Stored JSON is written on one line; text that is not is written again on one. */
const oneLineJson = (json: string) => (/[\r\n]/.test(json) ? JSON.stringify(JSON.parse(json)) : json);

/** Below this much unsent, a replay goes on (see `drained`); half the stream's limit when that is less. */
const REPLAY_LOW_WATER_BYTES = 1024 * 1024;

/**
 * The open event streams, so the server can end them when it stops (they never end on their
 * own, and a stop waits for every open response).
 */
export class EventStreams {
  readonly #open = new Set<() => void>();
  readonly #lowWaterBytes: number;

  /** `maxBufferedBytes`: MAX_BUFFERED_BYTES but in tests, where a history past it is pushed quicker when it is smaller. */
  constructor(private readonly maxBufferedBytes = MAX_BUFFERED_BYTES) {
    this.#lowWaterBytes = Math.min(REPLAY_LOW_WATER_BYTES, maxBufferedBytes / 2);
  }

  /**
   * Takes over `reply` as an event stream: headers now (those hooks set so far, such as CORS,
   * included), then what `write` is given, a heartbeat, and `onEnd` once the client or the
   * server ends it. Returns how to write to it and how to end it.
   */
  open(reply: FastifyReply, onEnd: () => void): { write: (text: string) => void; end: () => void; drained: () => Promise<boolean> } {
    reply.hijack();
    const raw = reply.raw;
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) raw.setHeader(name, value);
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    raw.flushHeaders();
    const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    const end = () => {
      if (!this.#open.delete(end)) return;
      clearInterval(heartbeat);
      onEnd();
      raw.end();
    };
    this.#open.add(end);
    raw.on('close', end);
    return {
      write: (text) => {
        if (!this.#open.has(end)) return;
        raw.write(text);
        if (raw.writableLength > this.maxBufferedBytes) {
          end();
          raw.destroy();
        }
      },
      end,
      /** Resolves once the client has taken most of what was written: `true`, or `false` when the stream ended. */
      drained: () =>
        raw.writableLength <= this.#lowWaterBytes || !this.#open.has(end)
          ? Promise.resolve(this.#open.has(end))
          : new Promise<boolean>((resolve) => {
              const done = () => {
                raw.off('drain', done);
                raw.off('close', done);
                resolve(this.#open.has(end));
              };
              raw.on('drain', done);
              raw.on('close', done);
            }),
    };
  }

  /** Ends every open stream (the server is stopping). */
  endAll(): void {
    for (const end of [...this.#open]) end();
  }
}
