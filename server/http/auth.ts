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
 * How a request shows it is signed in: the session key in `X-Session-API-Key` (trimmed, as
 * /sign-in trims the key it is given), or, without that header, the session cookie. A key that is
 * given decides: a stale key in a script is not rescued by the browser's cookie. A key is decided
 * at once; only a cookie needs the database.
 */
export type SessionProof = 'key' | 'wrong key' | 'cookie' | 'none';

export function sessionProofOf(sessionKey: string, browserSessions: BrowserSessions) {
  const matches = sessionKeyCheck(sessionKey);
  const header = SESSION_KEY_HEADER.toLowerCase();
  return (request: FastifyRequest): 'key' | 'wrong key' | Promise<'cookie' | 'none'> => {
    const key = request.headers[header];
    if (key !== undefined) return matches(typeof key === 'string' ? key.trim() : key) ? 'key' : 'wrong key';
    return sessionCookieAccepted(request, sessionKey, browserSessions).then((accepted) =>
      accepted ? ('cookie' as const) : ('none' as const),
    );
  };
}

/** Whether `proof` is a signed-in request's. */
export const isSignedIn = (proof: SessionProof) => proof === 'key' || proof === 'cookie';

/**
 * An `onRequest` hook that admits a signed-in request (see `sessionProofOf`); the session cookie
 * is accepted only from a page of this server's own origin (from another origin it is refused
 * with 403). It runs before body parsing, so nothing about a route leaks without the key. Routes
 * marked `ownAuth` check their own key in their own `onRequest` hook.
 */
export function requireSessionKey(sessionKey: string, browserSessions: BrowserSessions) {
  const proofOf = sessionProofOf(sessionKey, browserSessions);
  const unauthorized = (reply: FastifyReply) => reply.status(401).send({ detail: 'Unauthorized' });
  // A hook with a callback, not a promise: a key in the header (scripts, the console) is decided at once, without a turn of the event loop's queue.
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (request.routeOptions.config.ownAuth === true) return done();
    const proof = proofOf(request);
    if (proof === 'key') return done();
    if (proof === 'wrong key') return void unauthorized(reply);
    proof.then((cookie) => {
      if (cookie !== 'cookie') return void unauthorized(reply);
      if (fromOwnOrigin(request)) return done();
      reply.status(403).send({ detail: 'Cross-origin request refused: the session cookie is accepted only from pages of this server' });
    }, done);
  };
}
