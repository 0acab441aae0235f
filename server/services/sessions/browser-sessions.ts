import type { MessageDescriptor } from '@lingui/core';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Subject } from '../../authz/caller';
import { type Clock, systemClock } from '../../clock';
import type { Logger } from '../../logger';
import { repeatFromNow } from '../../repeat-from-now';
import type { BrowserSessionsStore, EndedSession, SessionSelection } from '../../store/browser-sessions-store';
import type { MetaStore } from '../../store/meta-store';
import { changesOf } from '../audit/audit-diff';
import type { AuditRecorder } from '../audit/audit-recorder';
import type { AuditActor } from '../audit/audit-service';

/** How long a signed-in browser stays in (seconds): in the cookie's Max-Age and checked on its value. */
export const SESSION_COOKIE_MAX_AGE_S = 12 * 60 * 60;

/** A clock a little ahead on another instance sharing the database is no reason to refuse. */
const CLOCK_SKEW_S = 60;

/** How often sessions that ended by their time are looked for (each one's end is recorded then). */
const EXPIRY_SWEEP_MS = 5 * 60 * 1000;

/** The server, ending a session at its time. */
const SERVER: AuditActor = { userId: null, method: 'server' };

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
 *
 * For the audit log, each session given is also kept as a row until it ends: its end is recorded
 * once, when the row goes (by whoever ended it, or by the server when its time is up). No request
 * reads the rows.
 */
export class BrowserSessions {
  #stopSweeping: (() => void) | undefined;

  /**
   * `refusedBecause`: why this server gives no browser sessions (its sandboxes share its network,
   * so any page one serves on this machine's names would be sent the cookie); then none it gave
   * before counts either.
   */
  constructor(
    private readonly meta: MetaStore,
    private readonly store: BrowserSessionsStore,
    private readonly audit: AuditRecorder,
    private readonly log: Logger,
    private readonly clock: Clock = systemClock,
    readonly refusedBecause?: MessageDescriptor,
  ) {}

  /** The key a session cookie under `sessionKey` is signed and checked with now. */
  async signingKey(sessionKey: string): Promise<string> {
    const secret = (await this.meta.get(SECRET_NAME)) ?? (await this.meta.getOrSet(SECRET_NAME, newSecret()));
    return signingKey(secret, sessionKey);
  }

  /**
   * Notes the session a cookie issued at `issuedAtMs` gives `holder`; it ends at the cookie's
   * Max-Age, or when `keyExpiresAt` (the key it was signed in with expires) if sooner. A note that
   * cannot be written costs the sign-in nothing.
   */
  async issued(holder: { userId: string; keyId?: number }, issuedAtMs: number, keyExpiresAt?: string | null): Promise<void> {
    const ends = issuedAtMs + SESSION_COOKIE_MAX_AGE_S * 1000;
    const expires = keyExpiresAt ? Math.min(ends, new Date(keyExpiresAt).getTime()) : ends;
    await this.store
      .insert({
        id: randomUUID(),
        user_id: holder.userId,
        key_id: holder.keyId ?? null,
        issued_at: new Date(issuedAtMs).toISOString(),
        expires_at: new Date(expires).toISOString(),
      })
      .catch((error: unknown) => this.log.warn({ err: error, userId: holder.userId }, 'could not note a browser session'));
  }

  /**
   * Ends the sessions `which` selects, recording each as ended by `who` for `reason`; `email`: the
   * user's, when their record is gone already.
   */
  async end(who: Subject | AuditActor, which: SessionSelection, reason: string, email?: string | null): Promise<void> {
    const ended = await this.store.end(which).catch((error: unknown) => {
      this.log.error({ err: error, userId: which.userId }, 'could not record the end of browser sessions');
      return [];
    });
    for (const session of ended) await this.#recordEnd(who, { ...session, email: session.email ?? email ?? null }, reason);
  }

  /** Ends the sessions whose time is up, recording each; returns how many. */
  async endExpired(): Promise<number> {
    const ended = await this.store.endExpired(this.clock().toISOString());
    for (const session of ended) {
      const byKey =
        session.key_id !== null && Date.parse(session.expires_at) < Date.parse(session.issued_at) + SESSION_COOKIE_MAX_AGE_S * 1000;
      await this.#recordEnd(SERVER, session, byKey ? 'The API key it was signed in with expired' : 'Expired');
    }
    return ended.length;
  }

  async #recordEnd(who: Subject | AuditActor, session: EndedSession, reason: string): Promise<void> {
    await this.audit.record(who, {
      action: 'end',
      resourceType: 'session',
      resourceId: session.user_id,
      resourceTarget: session.email,
      reason,
      diff: changesOf({ issued_at: session.issued_at, expires_at: session.expires_at }, {}),
    });
  }

  /** Ends expired sessions now and every few minutes until `close` (any instance may: a session is ended once). */
  startSweeping(): void {
    if (this.#stopSweeping) return;
    this.#stopSweeping = repeatFromNow(
      EXPIRY_SWEEP_MS,
      () => this.endExpired(),
      (error) => this.log.warn({ err: error }, 'could not end expired sessions'),
    );
  }

  close(): void {
    this.#stopSweeping?.();
    this.#stopSweeping = undefined;
  }
}
