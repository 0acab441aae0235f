import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * The server's one logger: Fastify logs requests through it and services log through children
 * of it (`log.child({ component })`), so every line has the same format and level. `false`
 * logs nothing (tests). Log lines name things by id, never by a secret value.
 */
export function createLogger(level: string | false, destination?: DestinationStream): Logger {
  return level === false ? pino({ enabled: false }) : pino({ level }, destination);
}
