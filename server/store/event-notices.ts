import pg from 'pg';
import type { Logger } from '../logger';

/** The PostgreSQL channel on which a stored event is announced (its payload: the conversation id). */
export const EVENTS_CHANNEL = 'conversation_events';

const RECONNECT_MS = 1_000;

type OnNotice = (conversationId: string) => void;

/**
 * Hears, over LISTEN on a connection of its own, of events any instance stored, so a console's
 * stream on one instance gets what another collected. A dropped connection is made again; what
 * was announced meanwhile is caught up by `onResume`. Once closed, no connection stays or comes.
 */
export class EventNotices {
  #client: pg.Client | undefined;
  #reconnect: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    private readonly url: string,
    private readonly log: Logger,
  ) {}

  async listen(onNotice: OnNotice, onResume: () => void): Promise<void> {
    const client = await this.#connect(onNotice);
    client.on('end', () => this.#reconnectLater(onNotice, onResume));
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#reconnect);
    await this.#client?.end();
  }

  /** A connection that LISTENs; none is left open when that fails or `close` came meanwhile. */
  async #connect(onNotice: OnNotice): Promise<pg.Client> {
    if (this.#closed) throw new Error('Event notices are closed');
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      if (message.channel === EVENTS_CHANNEL && message.payload) onNotice(message.payload);
    });
    client.on('error', (error) => this.log.warn({ err: error }, 'the connection that hears of new events failed'));
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      // A `close` while it connected did not end it (pg never settles a connect ended midway): it ends here.
      if (this.#closed) throw new Error('Event notices are closed');
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.#client = client;
    return client;
  }

  #reconnectLater(onNotice: OnNotice, onResume: () => void): void {
    if (this.#closed) return;
    this.#reconnect = setTimeout(() => {
      if (this.#closed) return;
      this.listen(onNotice, onResume).then(onResume, (error: unknown) => {
        if (this.#closed) return;
        this.log.warn({ err: error }, 'could not listen for new events again');
        this.#reconnectLater(onNotice, onResume);
      });
    }, RECONNECT_MS);
    this.#reconnect.unref();
  }
}
