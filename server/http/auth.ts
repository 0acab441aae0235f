import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { BrowserSessions } from '../services/sessions/browser-sessions';
import { fromOwnOrigin, sessionCookieAccepted } from './session-cookie';
import { SESSION_KEY_HEADER, sessionKeyCheck } from '../session-key';

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
  const header = SESSION_KEY_HEADER.toLowerCase();
  const unauthorized = (reply: FastifyReply) => reply.status(401).send({ detail: 'Unauthorized' });
  // A hook with a callback, not a promise: a key in the header (scripts, the console) is decided at once, without a turn of the event loop's queue.
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (request.routeOptions.config.ownAuth === true) return done();
    const key = request.headers[header];
    // Trimmed, as /sign-in trims the key it is given: one rule for both ways in.
    if (matches(typeof key === 'string' ? key.trim() : key)) return done();
    // A key that is given decides: a stale key in a script is not rescued by the browser's cookie.
    if (key !== undefined) return void unauthorized(reply);
    sessionCookieAccepted(request, sessionKey, browserSessions).then((accepted) => {
      if (!accepted) return void unauthorized(reply);
      if (fromOwnOrigin(request)) return done();
      reply.status(403).send({ detail: 'Cross-origin request refused: the session cookie is accepted only from pages of this server' });
    }, done);
  };
}
