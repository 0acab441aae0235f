import type { MessageDescriptor } from '@lingui/core';
import { createHmac, randomBytes } from 'node:crypto';
import type { MetaStore } from '../../store/meta-store';

/** How long a signed-in browser stays in (seconds): in the cookie's Max-Age and checked on its value. */
export const SESSION_COOKIE_MAX_AGE_S = 12 * 60 * 60;

/** A clock a little ahead on another instance sharing the database is no reason to refuse. */
const CLOCK_SKEW_S = 60;

/** The meta store's name for the secret session cookies are signed with. */
const SECRET_NAME = 'session_cookie_secret';

const newSecret = () => randomBytes(32).toString('base64url');
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * The key cookies for `sessionKey` are signed with: a MAC of the session key under a random
 * server secret. The key is mixed in so a new session key ends every cookie the old one gave;
 * the secret (not the key) keys it, so a cookie gives nothing to guess the key offline with.
 */
export const signingKey = (secret: string, sessionKey: string) => createHmac('sha256', secret).update(sessionKey).digest('base64url');

/** Whether a session issued at `issuedAt` (seconds) is still live at `now`. */
export const sessionLive = (issuedAt: number, now = nowSeconds()) =>
  issuedAt <= now + CLOCK_SKEW_S && now - issuedAt < SESSION_COOKIE_MAX_AGE_S;

/**
 * Browser sessions (the session cookie, whose value is whose session it is and when it was
 * issued, signed): the secret they are signed with. The secret lives in the database, so instances
 * sharing one accept each other's cookies; it is read on each use for that reason. A user's
 * sign-out ends their cookies through the user's record (`sessions_since`), on every instance.
 * Signing and the cookie itself are HTTP's (server/http/session-cookie.ts).
 */
export class BrowserSessions {
  /**
   * `refusedBecause`: why this server gives no browser sessions (its sandboxes share its network,
   * so any page one serves on this machine's names would be sent the cookie); then none it gave
   * before counts either.
   */
  constructor(
    private readonly meta: MetaStore,
    readonly refusedBecause?: MessageDescriptor,
  ) {}

  /** The key a session cookie under `sessionKey` is signed and checked with now. */
  async signingKey(sessionKey: string): Promise<string> {
    const secret = (await this.meta.get(SECRET_NAME)) ?? (await this.meta.getOrSet(SECRET_NAME, newSecret()));
    return signingKey(secret, sessionKey);
  }
}
