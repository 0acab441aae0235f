import fastifyCookie, { type CookieSerializeOptions, sign, unsign } from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hostnameOf } from './host-check';
import { isCookieFreeHost } from '../sandboxes/published-host';
import { Conflict } from '../domain-errors';
import { type BrowserSessions, SESSION_COOKIE_MAX_AGE_S, sessionLive } from '../services/sessions/browser-sessions';
import { OWNER_ID } from '../authz/caller';

/*
 * The way in for a browser page that cannot send `X-Session-API-Key` (OpenHands' own web client
 * never does): a cookie set by signing in with the key. It is HttpOnly (no script reads it),
 * SameSite=Strict (no other site's page sends it) and accepted only from this server's own
 * origin (a page on another port of the same host is "same-site", so the Origin decides).
 * Its value is whose session it is and when it was issued (ms), signed with the browser sessions' key.
 */

/** The cookie's name (the e2e tests look for it). */
export const SESSION_COOKIE = 'agent_console_session';

/** `reply.setCookie`/`clearCookie` for the routes registered after it in `app`'s scope (sign-in and sign-out). */
export async function registerSessionCookie(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCookie);
}

/** Whose a browser session is, and the API key it was signed in with (if one was). */
export interface SessionHolder {
  userId: string;
  keyId?: number;
}

/** The cookie's value for `holder`'s session issued at `issuedAtMs`, signed with `key` (`BrowserSessions.signingKey`). */
export const cookieValue = (key: string, holder: SessionHolder, issuedAtMs: number) =>
  sign(`${holder.userId}:${issuedAtMs}${holder.keyId === undefined ? '' : `:${holder.keyId}`}`, key);

/** A session a signed, live cookie claims; whether the user (and the key) may still use it is the identities' question. */
export interface SessionClaim extends SessionHolder {
  issuedAtMs: number;
}

const CLAIM = /^([A-Za-z0-9-]{1,64}):(\d{1,15})(?::(\d{1,15}))?$/;
/** A cookie from before there were users: the issue second alone, the owner's. */
const OWNER_CLAIM = /^\d{1,12}$/;

/** What the cookie `value` claims, if `key` signed it and it is still live. */
function claimOf(value: string, key: string): SessionClaim | undefined {
  const unsigned = unsign(value, key);
  if (!unsigned.valid) return undefined;
  const text = unsigned.value;
  const claim = OWNER_CLAIM.test(text)
    ? { userId: OWNER_ID, issuedAtMs: Number(text) * 1000 }
    : ((match) =>
        match && { userId: match[1] ?? '', issuedAtMs: Number(match[2]), ...(match[3] === undefined ? {} : { keyId: Number(match[3]) }) })(
        CLAIM.exec(text),
      );
  return claim && sessionLive(Math.floor(claim.issuedAtMs / 1000)) ? claim : undefined;
}

/**
 * Every value of the session cookie in the request's Cookie header. A page on another port of
 * this host can plant one of the same name with a longer path, which the browser sends first:
 * each is tried, so a planted one cannot lock the user out. The parser keeps the first value of
 * a name (so does `request.cookies`), so it is given one pair at a time.
 */
export function sessionCookieValues(request: FastifyRequest): string[] {
  return (request.headers.cookie ?? '').split(';').flatMap((pair) => fastifyCookie.parse(pair)[SESSION_COOKIE] ?? []);
}

/** The live sessions the request's session cookies claim, signed under `sessionKey`. */
export async function sessionCookieClaims(request: FastifyRequest, sessionKey: string, sessions: BrowserSessions): Promise<SessionClaim[]> {
  const values = sessionCookieValues(request);
  if (values.length === 0 || sessions.refusedBecause !== undefined) return [];
  const key = await sessions.signingKey(sessionKey);
  return values.flatMap((value) => claimOf(value, key) ?? []);
}

/**
 * Whether the request comes from a page of this server. A browser names the page's origin in
 * `Origin` (always on cross-origin requests and on same-origin writes) and says `Sec-Fetch-Site`.
 * A read with neither is not from a browser page, which is no cross-origin risk; a write needs
 * one of them. `Origin: null` is what a form of a page served with `Referrer-Policy: no-referrer`
 * (ours) sends: then only a same-origin `Sec-Fetch-Site` will do.
 */
export function fromOwnOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  if (origin === 'null') return site === 'same-origin';
  if (origin !== undefined) {
    try {
      return new URL(origin).host === request.headers.host?.toLowerCase();
    } catch {
      return false;
    }
  }
  if (site === 'same-origin') return true;
  const read = request.method === 'GET' || request.method === 'HEAD';
  return read && (site === undefined || site === 'none');
}

/**
 * Where the cookie must not be set: on the addresses sandboxes listen or are published on, a
 * cookie would also be sent to every sandbox's port, to code that could replay it. There, the same
 * port on `localhost` is the way (`undefined` when the request's host is fine).
 */
export function cookieFreeHostAlternative(request: FastifyRequest): string | undefined {
  const host = request.headers.host ?? '';
  if (!isCookieFreeHost(hostnameOf(host))) return undefined;
  const port = /:(\d+)$/.exec(host)?.[1];
  return `http://localhost${port ? `:${port}` : ''}`;
}

/** Secure when the page is served over https (its Origin says so) or COOKIE_SECURE is set. */
const attributes = (request: FastifyRequest, alwaysSecure: boolean): CookieSerializeOptions => ({
  path: '/',
  httpOnly: true,
  sameSite: 'strict',
  secure: alwaysSecure || request.headers.origin?.startsWith('https:') === true,
});

/**
 * Signs the browser in as `holder`: a new session cookie under `sessionKey`. `keyExpiresAt`: when
 * the key it signed in with expires (the session ends then, if sooner).
 */
export async function setSessionCookie(
  reply: FastifyReply,
  sessionKey: string,
  sessions: BrowserSessions,
  alwaysSecure: boolean,
  holder: SessionHolder,
  keyExpiresAt?: string | null,
) {
  if (sessions.refusedBecause !== undefined) throw new Conflict(sessions.refusedBecause);
  const issuedAtMs = Date.now();
  const value = cookieValue(await sessions.signingKey(sessionKey), holder, issuedAtMs);
  await sessions.issued(holder, issuedAtMs, keyExpiresAt);
  reply.setCookie(SESSION_COOKIE, value, { ...attributes(reply.request, alwaysSecure), maxAge: SESSION_COOKIE_MAX_AGE_S });
}

/** Removes the cookie (sign-out). */
export function clearSessionCookie(reply: FastifyReply, alwaysSecure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, attributes(reply.request, alwaysSecure));
}
