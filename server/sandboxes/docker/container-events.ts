import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import type { Logger } from '../../logger';
import { constantBackoff, retry } from '../../retry';

/** The engine's container events this server acts on. */
export const CONTAINER_ACTIONS = ['start', 'kill', 'die', 'unpause', 'destroy'] as const;
export type ContainerAction = (typeof CONTAINER_ACTIONS)[number];

export interface ContainerEvent {
  action: ContainerAction;
  containerId: string;
  /** The container's labels, with the engine's own attributes (name, image, signal, exitCode). */
  attributes: Record<string, string>;
}

interface RawEvent {
  Type?: string;
  Action?: string;
  Actor?: { ID?: string; Attributes?: Record<string, string> };
  time?: number;
  timeNano?: number;
}

/** How long to wait before following again when the stream broke (the engine restarted). */
const RETRY_MS = 1000;
/** Events remembered so a stream followed again (from the last one's time) does not hand one over twice. */
const REMEMBERED = 64;

const isAction = (action: string | undefined): action is ContainerAction => (CONTAINER_ACTIONS as readonly string[]).includes(action ?? '');
const keyOf = (event: RawEvent) => `${event.Actor?.ID}:${event.Action}:${event.timeNano}`;

/**
 * Follows the engine's event stream for the containers that carry `label`, one stream for all of
 * them, and hands each event to `handle` in the engine's order (one after the other). When the
 * stream breaks it follows again from the last event's time, so the events of the gap (the
 * engine keeps its recent ones) still come, once.
 */
export class ContainerEvents {
  #stream: Readable | undefined;
  #following: Promise<void> | undefined;
  readonly #closing = new AbortController();
  #closed = false;
  /** Seconds (with a fraction), as the engine takes `since`. */
  #since: number | undefined;
  readonly #recent: string[] = [];
  #handling = Promise.resolve();
  #warned = false;

  constructor(
    private readonly docker: Docker,
    private readonly label: string,
    private readonly handle: (event: ContainerEvent) => Promise<void>,
    private readonly log: Logger,
  ) {}

  /** Resolves once the engine streams the events to it (from this moment on); at once when it does already. */
  follow(): Promise<void> {
    this.#following ??= this.#connect().catch((error: unknown) => {
      this.#following = undefined; // the next call tries again
      throw error;
    });
    return this.#following;
  }

  close(): void {
    this.#closed = true;
    this.#closing.abort();
    this.#stream?.destroy();
    this.#stream = undefined;
  }

  async #connect(): Promise<void> {
    // The engine subscribes only after it responded: asking from a moment earlier misses nothing in between.
    this.#since ??= Date.now() / 1000;
    const stream = (await this.docker.getEvents({
      since: this.#since,
      filters: { type: ['container'], label: [this.label], event: [...CONTAINER_ACTIONS] },
    })) as Readable; // an HTTP response
    if (this.#closed) return void stream.destroy();
    this.#stream = stream;
    let buffered = '';
    stream.on('data', (chunk: Buffer | string) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) this.#take(line);
    });
    const broke = (error?: unknown) => {
      if (this.#stream !== stream || this.#closed) return;
      this.#stream = undefined;
      if (!this.#warned) this.log.warn({ err: error }, "lost the Docker engine's event stream; following it again");
      this.#warned = true;
      this.#again();
    };
    stream.on('error', broke);
    stream.on('end', () => broke());
    stream.on('close', () => broke());
  }

  #again(): void {
    const waits = { waitFirst: true, signal: this.#closing.signal, keepAlive: false };
    retry(() => this.#connect(), constantBackoff(RETRY_MS), waits).then(
      () => {
        if (this.#warned) this.log.info('following the Docker engine event stream again');
        this.#warned = false;
      },
      () => undefined, // closed while waiting
    );
  }

  #take(line: string): void {
    let raw: RawEvent;
    try {
      raw = JSON.parse(line) as RawEvent;
    } catch {
      return;
    }
    const key = keyOf(raw);
    if (this.#recent.includes(key)) return;
    this.#recent.push(key);
    if (this.#recent.length > REMEMBERED) this.#recent.shift();
    if (raw.timeNano) this.#since = raw.timeNano / 1e9;
    const { ID: containerId, Attributes: attributes = {} } = raw.Actor ?? {};
    if (raw.Type !== 'container' || !isAction(raw.Action) || !containerId) return;
    const event: ContainerEvent = { action: raw.Action, containerId, attributes };
    this.#handling = this.#handling.then(() =>
      this.handle(event).catch((error: unknown) =>
        this.log.warn({ err: error, action: event.action }, 'could not act on a container event'),
      ),
    );
  }
}
