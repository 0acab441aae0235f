import pg from 'pg';
import type { Logger } from '../logger';

/** The PostgreSQL channel on which a stored event is announced (its payload: the conversation id). */
export const EVENTS_CHANNEL = 'conversation_events';

const RECONNECT_MS = 1_000;

/**
 * Hears, over LISTEN on a connection of its own, of events any instance stored, so a console's
 * stream on one instance gets what another collected. A dropped connection is made again; what
 * was announced meanwhile is caught up by `onResume`.
 */
export class EventNotices {
  #client: pg.Client | undefined;
  #closed = false;

  constructor(
    private readonly url: string,
    private readonly log: Logger,
  ) {}

  async listen(onNotice: (conversationId: string) => void, onResume: () => void): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      if (message.channel === EVENTS_CHANNEL && message.payload) onNotice(message.payload);
    });
    client.on('error', (error) => this.log.warn({ err: error }, 'the connection that hears of new events failed'));
    client.on('end', () => {
      if (this.#closed) return;
      setTimeout(() => {
        this.listen(onNotice, onResume).then(onResume, (error: unknown) => {
          this.log.warn({ err: error }, 'could not listen for new events again');
        });
      }, RECONNECT_MS).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    this.#client = client;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#client?.end();
  }
}
