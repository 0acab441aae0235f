import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_KEY_HEADER, sessionKeyCheck } from './session-key';

export { SESSION_KEY_HEADER };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route checks a key of its own (a sandbox's, on the webhook), not the session key. */
    ownAuth?: boolean;
  }
}

/**
 * An `onRequest` hook that admits a request only with the session key in `X-Session-API-Key`.
 * It runs before body parsing, so nothing about a route leaks without the key. Routes marked
 * `ownAuth` check their own key in their own `onRequest` hook.
 */
export function requireSessionKey(sessionKey: string) {
  const matches = sessionKeyCheck(sessionKey);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.routeOptions.config.ownAuth === true) return;
    if (matches(request.headers[SESSION_KEY_HEADER.toLowerCase()])) return;
    return reply.status(401).send({ detail: 'Unauthorized' });
  };
}
