import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { MetaStore } from '../../store/meta-store';

/** How long a signed-in browser stays in (seconds): in the cookie's Max-Age and checked on its value. */
export const SESSION_COOKIE_MAX_AGE_S = 12 * 60 * 60;

/** A clock a little ahead on another instance sharing the database is no reason to refuse. */
const CLOCK_SKEW_S = 60;

const mac = (secret: string, sessionKey: string, issuedAt: number) =>
  createHmac('sha256', secret)
    // The key's hash is mixed in: a new session key ends every cookie the old one gave.
    .update(`${issuedAt}.${createHash('sha256').update(sessionKey).digest('hex')}`)
    .digest('base64url');

/**
 * The cookie's value: when it was issued (seconds) and a MAC over that, keyed by a random server
 * secret (not the key: a cookie gives nothing to guess the key offline with). Rotating the secret
 * ends every cookie.
 */
export function cookieValue(secret: string, sessionKey: string, issuedAt: number): string {
  return `${issuedAt}.${mac(secret, sessionKey, issuedAt)}`;
}

/** Whether `value` is a cookie `secret` and `sessionKey` gave, and not older than the max age at `now` (seconds). */
export function cookieValueValid(value: string, secret: string, sessionKey: string, now: number): boolean {
  const parsed = /^(\d{1,12})\.([\w-]{43})$/.exec(value);
  if (!parsed) return false;
  const issuedAt = Number(parsed[1]);
  if (issuedAt > now + CLOCK_SKEW_S || now - issuedAt >= SESSION_COOKIE_MAX_AGE_S) return false;
  return timingSafeEqual(Buffer.from(parsed[2]!), Buffer.from(mac(secret, sessionKey, issuedAt)));
}

/** The meta store's name for the secret session cookies are signed with. */
const SECRET_NAME = 'session_cookie_secret';

const newSecret = () => randomBytes(32).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Browser sessions (the session cookie): issued on sign-in, ended all at once on sign-out. The
 * secret they are signed with lives in the database, so instances sharing one accept each
 * other's cookies, and a sign-out on one ends them on all. It is read on each check for that reason.
 */
export class BrowserSessions {
  constructor(private readonly meta: MetaStore) {}

  async #secret(): Promise<string> {
    return (await this.meta.get(SECRET_NAME)) ?? this.meta.getOrSet(SECRET_NAME, newSecret());
  }

  /** A new cookie value for a browser that signed in with `sessionKey`. */
  async issue(sessionKey: string): Promise<string> {
    return cookieValue(await this.#secret(), sessionKey, nowSeconds());
  }

  /** Whether any of `values` (a request's session cookies) is a live session under `sessionKey`. */
  async accepts(sessionKey: string, values: readonly string[]): Promise<boolean> {
    if (values.length === 0) return false;
    const secret = await this.#secret();
    const now = nowSeconds();
    return values.some((value) => cookieValueValid(value, secret, sessionKey, now));
  }

  /** Ends every browser session (a new secret). */
  async endAll(): Promise<void> {
    await this.meta.set(SECRET_NAME, newSecret());
  }
}
