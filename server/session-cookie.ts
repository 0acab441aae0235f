import { createHmac } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { sessionKeyCheck } from './session-key';

/*
 * The way in for a browser page that cannot send `X-Session-API-Key` (OpenHands' own web client
 * never does): a cookie set by signing in with the key. It is HttpOnly (no script reads it),
 * SameSite=Strict (no other site's page sends it) and accepted only from this server's own
 * origin (a page on another port of the same host is "same-site", so the Origin decides).
 */

export const SESSION_COOKIE = 'agent_console_session';

/** The cookie's value: derived from the key (not the key itself), so it changes when the key does and cannot be used as one. */
export function cookieValueFor(sessionKey: string): string {
  return createHmac('sha256', sessionKey).update('agent-console session cookie v1').digest('base64url');
}

/** A check of a request's cookie against the value the current key gives. */
export function sessionCookieCheck(sessionKey: string): (request: FastifyRequest) => boolean {
  const matches = sessionKeyCheck(cookieValueFor(sessionKey));
  return (request) => matches(cookieOf(request, SESSION_COOKIE));
}

/** The value of cookie `name` in the request's Cookie header. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/**
 * Whether the request comes from a page of this server. A browser names the page's origin in
 * `Origin` (always on cross-origin requests and on same-origin writes) and says `Sec-Fetch-Site`;
 * a request with neither is not from a browser page, which is no cross-origin risk. `Origin: null`
 * is what a form of a page served with `Referrer-Policy: no-referrer` (ours) sends: then only a
 * same-origin `Sec-Fetch-Site` will do.
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
  return site === undefined || site === 'same-origin' || site === 'none';
}

const ATTRIBUTES = 'Path=/; HttpOnly; SameSite=Strict';

/** `Set-Cookie` for a signed-in browser: a session cookie (it ends with the browser), Secure over https. */
export function sessionCookieHeader(sessionKey: string, request: FastifyRequest): string {
  return `${SESSION_COOKIE}=${cookieValueFor(sessionKey)}; ${ATTRIBUTES}${request.protocol === 'https' ? '; Secure' : ''}`;
}

/** `Set-Cookie` that removes it (sign-out). */
export const clearedSessionCookieHeader = `${SESSION_COOKIE}=; ${ATTRIBUTES}; Max-Age=0`;
