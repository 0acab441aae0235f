import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_KEY_HEADER = 'X-Session-API-Key';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * An `onRequest` hook that admits a request only with the session key in `X-Session-API-Key`.
 * It runs before body parsing and routing, so nothing about a route leaks without the key.
 * Both sides are hashed first so the comparison takes the same time whatever the lengths.
 */
export function requireSessionKey(sessionKey: string) {
  const expected = digest(sessionKey);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const given = request.headers[SESSION_KEY_HEADER.toLowerCase()];
    if (typeof given === 'string' && timingSafeEqual(digest(given), expected)) return;
    return reply.status(401).send({ detail: 'Unauthorized' });
  };
}
