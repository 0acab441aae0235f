import type { FastifyRequest } from 'fastify';
import { hostnameOf } from './host-check';
import { SANDBOX_PUBLISHED_HOST } from '../sandboxes/published-host';
import { SESSION_COOKIE_MAX_AGE_S } from '../services/sessions/browser-sessions';

/*
 * The way in for a browser page that cannot send `X-Session-API-Key` (OpenHands' own web client
 * never does): a cookie set by signing in with the key. It is HttpOnly (no script reads it),
 * SameSite=Strict (no other site's page sends it) and accepted only from this server's own
 * origin (a page on another port of the same host is "same-site", so the Origin decides).
 */

/** The cookie's name (the e2e tests look for it). */
export const SESSION_COOKIE = 'agent_console_session';

/**
 * Every value of the session cookie in the request's Cookie header. A page on another port of
 * this host can plant one of the same name with a longer path, which the browser sends first:
 * each is tried, so a planted one cannot lock the user out.
 */
export function sessionCookieValues(request: FastifyRequest): string[] {
  const values: string[] = [];
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === SESSION_COOKIE) values.push(part.slice(separator + 1).trim());
  }
  return values;
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
 * Where the cookie must not be set: on the host name sandboxes are published on, a cookie
 * would also be sent to every sandbox's port, to code that could replay it. There, the same
 * port on `localhost` is the way (`undefined` when the request's host is fine).
 */
export function cookieFreeHostAlternative(request: FastifyRequest): string | undefined {
  const host = request.headers.host ?? '';
  if (hostnameOf(host) !== SANDBOX_PUBLISHED_HOST) return undefined;
  const port = /:(\d+)$/.exec(host)?.[1];
  return `http://localhost${port ? `:${port}` : ''}`;
}

/** Secure when the page is served over https (its Origin says so) or COOKIE_SECURE is set. */
const attributes = (request: FastifyRequest, alwaysSecure: boolean) =>
  `Path=/; HttpOnly; SameSite=Strict${alwaysSecure || request.headers.origin?.startsWith('https:') ? '; Secure' : ''}`;

/** `Set-Cookie` for a signed-in browser. */
export function sessionCookieHeader(value: string, request: FastifyRequest, alwaysSecure: boolean): string {
  return `${SESSION_COOKIE}=${value}; ${attributes(request, alwaysSecure)}; Max-Age=${SESSION_COOKIE_MAX_AGE_S}`;
}

/** `Set-Cookie` that removes it (sign-out). */
export function clearedSessionCookieHeader(request: FastifyRequest, alwaysSecure: boolean): string {
  return `${SESSION_COOKIE}=; ${attributes(request, alwaysSecure)}; Max-Age=0`;
}
