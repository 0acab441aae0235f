import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_KEY_HEADER, sessionKeyCheck } from './session-key';

export { SESSION_KEY_HEADER };

/**
 * An `onRequest` hook that admits a request only with the session key in `X-Session-API-Key`.
 * It runs before body parsing and routing, so nothing about a route leaks without the key.
 */
export function requireSessionKey(sessionKey: string) {
  const matches = sessionKeyCheck(sessionKey);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (matches(request.headers[SESSION_KEY_HEADER.toLowerCase()])) return;
    return reply.status(401).send({ detail: 'Unauthorized' });
  };
}
