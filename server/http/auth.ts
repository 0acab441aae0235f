import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { isAdminRole } from '../../src/contract/roles';
import type { BrowserSessions } from '../services/sessions/browser-sessions';
import { type Caller, sessionKeyCaller } from '../authz/caller';
import { Identities } from '../services/team/identities';
import { CALLER_HEADER } from '../services/instances/owner-client';
import { fromOwnOrigin, sessionCookieClaims } from './session-cookie';
import { routeAccess } from './route-access';
import { SESSION_KEY_HEADER, sessionKeyCheck } from '../session-key';

export { SESSION_KEY_HEADER };

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request is; set by the auth hook before any handler runs (routes of rule `sandbox` have none). */
    caller: Caller;
  }
}

/** The key a request gives: `X-Session-API-Key`, else `Authorization: Bearer` (as OpenHands takes API keys); trimmed. */
export function givenKey(request: FastifyRequest): string | string[] | undefined {
  const key = request.headers[SESSION_KEY_HEADER.toLowerCase()];
  if (key !== undefined) return typeof key === 'string' ? key.trim() : key;
  const authorization = request.headers.authorization;
  return authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length).trim() : undefined;
}

/** Who a key is: the session key's holder (at once), or an API key's user (asked of the database); `address`: the client's. */
export function keyHolder(sessionKey: string, identities: Identities) {
  const matches = sessionKeyCheck(sessionKey);
  return (key: string | string[], address?: string): Caller | 'wrong key' | Promise<Caller | 'wrong key'> => {
    if (matches(key)) return sessionKeyCaller;
    if (typeof key !== 'string' || !Identities.isApiKey(key)) return 'wrong key';
    return identities.byApiKey(key, address).then((caller) => caller ?? 'wrong key');
  };
}

/**
 * Who a request is, if anyone: the session key's holder (the owner, or the user another instance
 * names in `CALLER_HEADER`), an API key's user, or, with no key given, the user of a session cookie. A key that is given decides: a stale key in
 * a script is not rescued by the browser's cookie. The session key is decided at once; API keys
 * and cookies ask the database. `'wrong key'` and `'none'` differ only for sign-out's answer.
 */
export function callerOf(sessionKey: string, browserSessions: BrowserSessions, identities: Identities) {
  const byKey = keyHolder(sessionKey, identities);
  const cookieCaller = (request: FastifyRequest) =>
    sessionCookieClaims(request, sessionKey, browserSessions).then(async (claims) => {
      for (const claim of claims) {
        const caller = await identities.byCookie(claim.userId, claim.issuedAtMs, claim.keyId);
        if (caller) return caller;
      }
      return 'none' as const;
    });
  return (request: FastifyRequest): Caller | 'wrong key' | Promise<Caller | 'wrong key' | 'none'> => {
    const key = givenKey(request);
    if (key === undefined) return cookieCaller(request);
    const holder = byKey(key, request.ip);
    // Another instance, asking for one of its callers: only the session key may say so.
    const forUser = request.headers[CALLER_HEADER.toLowerCase()];
    if (holder === sessionKeyCaller && typeof forUser === 'string')
      return identities.byUserId(forUser).then((caller) => caller ?? 'wrong key');
    return holder;
  };
}

const unauthorized = (reply: FastifyReply) => reply.status(401).send({ detail: 'Unauthorized' });

/**
 * The `onRequest` hook of every API route: it finds who the request is (see `callerOf`) and
 * checks them against the route's rule (server/http/route-access.ts), before the body is read,
 * so nothing about a route leaks to a request that may not call it. The session cookie is
 * accepted only from a page of this server's own origin (from another origin: 403).
 */
export function requireCaller(sessionKey: string, browserSessions: BrowserSessions, identities: Identities) {
  const find = callerOf(sessionKey, browserSessions, identities);
  const admit = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction, caller: Caller | 'wrong key' | 'none') => {
    if (caller === 'wrong key' || caller === 'none') return void unauthorized(reply);
    if (caller.authType === 'cookie' && !fromOwnOrigin(request)) {
      return void reply
        .status(403)
        .send({ detail: 'Cross-origin request refused: the session cookie is accepted only from pages of this server' });
    }
    const access = routeAccess(request.method, request.routeOptions.url);
    if (access === undefined) return void reply.status(403).send({ detail: 'This route has no access rule' });
    if (access === 'admin' && !isAdminRole(caller.role))
      return void reply.status(403).send({ detail: 'Only owners and admins can do this' });
    request.caller = { ...caller, address: request.ip };
    done();
  };
  // A hook with a callback, not a promise: the session key (scripts, the console) is decided at once, without a turn of the event loop's queue.
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (routeAccess(request.method, request.routeOptions.url) === 'sandbox') return done();
    const caller = find(request);
    if (!(caller instanceof Promise)) return admit(request, reply, done, caller);
    caller.then((found) => admit(request, reply, done, found), done);
  };
}
