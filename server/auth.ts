import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BrowserSessions } from './services/browser-sessions';
import { fromOwnOrigin, sessionCookieValues } from './session-cookie';
import { SESSION_KEY_HEADER, sessionKeyCheck } from './session-key';

export { SESSION_KEY_HEADER };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route checks a key of its own (a sandbox's, on the webhook), not the session key. */
    ownAuth?: boolean;
  }
}

/**
 * An `onRequest` hook that admits a request with the session key in `X-Session-API-Key`, or,
 * without that header, with the session cookie from a page of this server's own origin (the
 * cookie sent from another origin is refused with 403). It runs before body parsing, so nothing
 * about a route leaks without the key. Routes marked `ownAuth` check their own key in their own
 * `onRequest` hook.
 */
export function requireSessionKey(sessionKey: string, browserSessions: BrowserSessions) {
  const matches = sessionKeyCheck(sessionKey);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.routeOptions.config.ownAuth === true) return;
    const key = request.headers[SESSION_KEY_HEADER.toLowerCase()];
    // Trimmed, as /sign-in trims the key it is given: one rule for both ways in.
    if (matches(typeof key === 'string' ? key.trim() : key)) return;
    // A key that is given decides: a stale key in a script is not rescued by the browser's cookie.
    if (key === undefined && (await browserSessions.accepts(sessionKey, sessionCookieValues(request)))) {
      if (fromOwnOrigin(request)) return;
      return reply
        .status(403)
        .send({ detail: 'Cross-origin request refused: the session cookie is accepted only from pages of this server' });
    }
    return reply.status(401).send({ detail: 'Unauthorized' });
  };
}
