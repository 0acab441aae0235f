import { randomBytes } from 'node:crypto';
import { cookieValue, cookieValueValid } from '../session-cookie';
import type { MetaStore } from '../store/meta-store';

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
