import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Invitation, InvitationResult, Member, MemberPage, MemberPatch } from '../../../src/contract/team';
import type { Role } from '../../../src/contract/roles';
import type { Clock } from '../../clock';
import { systemClock } from '../../clock';
import type { Logger } from '../../logger';
import type { UserRecord } from '../../store/users-store';
import type { UserChanges } from '../../authz/users';
import { Conflict, Invalid, NotFound, Unauthenticated, Unavailable } from '../../domain-errors';
import type { UserSandboxLimits } from '../sandboxes/sandbox-limits';
import { type Attempt, type AttemptLimit, AttemptLimiter } from './attempt-limiter';
import { asSystem, type Caller, type Subject } from '../../authz/caller';
import type { DataAccess } from '../../authz/data-access';
import { Passwords } from './passwords';
import { type AuditRecorder, NO_AUDIT } from '../audit/audit-recorder';
import { changesOf } from '../audit/audit-diff';
import type { SessionSelection } from '../../store/browser-sessions-store';

/** How long an invitation link works. */
export const INVITATION_DAYS = 7;

/**
 * Failed sign-ins in the window before more are refused for a while: of an account from one
 * address, and of an account from anywhere (a guess spread over many addresses). An address alone
 * is never limited: behind a reverse proxy, or from sandboxes through their gateway, every user
 * shares one, and one of them failing must not lock the others out.
 */
const ACCOUNT_FROM_ADDRESS_ATTEMPTS = 10;
const ACCOUNT_ATTEMPTS = 100;
const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

/** The limits a password attempt on account `email` from `address` counts against. */
const signInLimits = (email: string, address: string): AttemptLimit[] => [
  { key: `account:${email}`, limit: ACCOUNT_ATTEMPTS },
  { key: `account-from:${email}|${address}`, limit: ACCOUNT_FROM_ADDRESS_ATTEMPTS },
];

const SIGN_IN = asSystem('sign in');

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** What the team service needs of the rest of the server, given when the services are wired. */
export interface TeamHooks {
  /** How many sandboxes of each user run now. */
  runningSandboxes(userIds: string[]): Promise<Map<string, number>>;
  /** Pauses every running sandbox of a user (disabled, deleted). */
  pauseSandboxesOf(userId: string): Promise<void>;
  /** Removes a user's settings, secrets and tokens (deleted), as the server at that task for them. */
  forgetUserData(subject: Subject): Promise<void>;
  /**
   * Ends the browser sessions `which` selects (their cookies no longer count already), recording
   * each as ended by `who` for `reason`; `email`: the user's, when their record is gone.
   */
  endBrowserSessions(who: Subject, which: SessionSelection, reason: string, email?: string | null): Promise<void>;
  /** Why nobody may be invited on this server (its sandboxes share its network), if so. */
  invitationsRefusedBecause?: MessageDescriptor;
}

/** What `invite` made: the invitations, their tokens, and the addresses it could not invite, with why. */
export type InvitationsMade = Omit<InvitationResult, 'failed'> & {
  failed: { email: string; error: MessageDescriptor }[];
  tokens: Map<string, string>;
};

const NOT_SIGNED_IN = msg`Email or password not accepted`;

/**
 * The team: who may sign in, with which role, and changing that. Who may change whom is the
 * policy's (server/authz/policy.ts); the rules kept here are the team's own: one active owner
 * always remains, and an invitation is accepted once, within its days.
 */
export class TeamService {
  readonly #attempts: AttemptLimiter;

  constructor(
    private readonly data: DataAccess,
    private readonly hooks: TeamHooks,
    private readonly log: Logger,
    private readonly clock: Clock = systemClock,
    private readonly passwords = new Passwords(),
    private readonly audit: AuditRecorder = NO_AUDIT,
  ) {
    this.#attempts = new AttemptLimiter(SIGN_IN_WINDOW_MS, () => this.clock().getTime());
  }

  /** A password check for `attempt`; one refused for want of time to hash is not counted against anyone. */
  #checked(attempt: Attempt, check: () => Promise<boolean>): Promise<boolean> {
    return check().catch((error: unknown) => {
      if (error instanceof Unavailable) this.#attempts.forgive(attempt);
      throw error;
    });
  }

  /** The organisation every user is in (ours has one). */
  readonly orgId = 'default';

  /** The caller's own user. */
  async user(caller: Caller): Promise<UserRecord | undefined> {
    return this.data.as(caller).users.get(caller.userId);
  }

  /** The sandbox limits an admin set for a user (what the caps count for everyone's starts). */
  async sandboxLimits(userId: string): Promise<UserSandboxLimits> {
    const user = await this.data.as(asSystem('count sandboxes against the limits')).users.get(userId);
    return { maxRunning: user?.max_running_sandboxes ?? null, maxSandboxes: user?.max_sandboxes ?? null };
  }

  async members(caller: Caller, query: { page_id?: number; limit?: number; email?: string }): Promise<MemberPage> {
    const limit = query.limit ?? 10;
    const page = query.page_id ?? 0;
    const rows = await this.data.as(caller).users.list(page * limit, limit, query.email);
    const running = await this.hooks.runningSandboxes(rows.map((row) => row.id));
    return { items: rows.map((row) => this.#member(row, running.get(row.id) ?? 0)), current_page: page, per_page: limit };
  }

  count(caller: Caller, email?: string): Promise<number> {
    return this.data.as(caller).users.count(email);
  }

  #member(row: UserRecord, running: number): Member {
    return {
      user_id: row.id,
      email: row.email,
      role: row.role as Role,
      status: row.status as Member['status'],
      name: row.name,
      last_sign_in_at: row.last_sign_in_at,
      running_sandboxes: running,
      created_at: row.created_at,
      max_running_sandboxes: row.max_running_sandboxes,
      max_sandboxes: row.max_sandboxes,
      monthly_cost_limit: row.monthly_cost_limit,
    };
  }

  /** Invites each address; each gets a one-time link (the token is in the result only). Why one failed is for a person to read. */
  async invite(caller: Caller, emails: string[], role: Role): Promise<InvitationsMade> {
    if (this.hooks.invitationsRefusedBecause) throw new Conflict(this.hooks.invitationsRefusedBecause);
    const users = this.data.as(caller).users;
    const inviter = await users.get(caller.userId);
    const now = this.clock();
    const expires = new Date(now.getTime() + INVITATION_DAYS * 24 * 60 * 60 * 1000);
    const successful: Invitation[] = [];
    const failed: InvitationsMade['failed'] = [];
    const tokens = new Map<string, string>();
    for (const email of [...new Set(emails.map((typed) => typed.trim().toLowerCase()))]) {
      const token = randomBytes(24).toString('base64url');
      const id = randomUUID();
      const added = await users.invite({
        id,
        email,
        name: null,
        role,
        status: 'invited',
        password_hash: null,
        created_at: now.toISOString(),
        invited_by: caller.userId,
        invitation_hash: tokenHash(token),
        invitation_expires_at: expires.toISOString(),
      });
      if (!added) {
        failed.push({ email, error: msg`A user with this email exists already` });
        await this.audit.record(caller, {
          action: 'create',
          resourceType: 'invitation',
          resourceTarget: email,
          result: 'refused',
          reason: 'A user with this email exists already',
        });
        continue;
      }
      tokens.set(id, token);
      successful.push({
        id,
        email,
        role,
        status: 'pending',
        created_at: now.toISOString(),
        expires_at: expires.toISOString(),
        inviter_email: inviter?.email ?? null,
      });
      this.log.info({ userId: id, role, by: caller.userId }, 'user invited');
      await this.audit.record(caller, {
        action: 'create',
        resourceType: 'invitation',
        resourceId: id,
        resourceTarget: email,
        diff: changesOf({}, { email, role, expires_at: expires.toISOString() }),
      });
    }
    return { successful, failed, tokens };
  }

  /** A new link for an invited user who has not accepted yet (the old one stops working); allowed as inviting them with their role is. */
  async reinvite(caller: Caller, userId: string): Promise<{ token: string; expires_at: string }> {
    if (this.hooks.invitationsRefusedBecause) throw new Conflict(this.hooks.invitationsRefusedBecause);
    const token = randomBytes(24).toString('base64url');
    const expires = new Date(this.clock().getTime() + INVITATION_DAYS * 24 * 60 * 60 * 1000).toISOString();
    let before: string | null = null;
    let email: string | null = null;
    await this.data.as(caller).users.renewInvitation(userId, (user) => {
      if (user.status !== 'invited') throw new Conflict(msg`This user has accepted their invitation already`);
      before = user.invitation_expires_at;
      email = user.email;
      return { invitation_hash: tokenHash(token), invitation_expires_at: expires };
    });
    this.log.info({ userId, by: caller.userId }, 'invitation renewed');
    await this.audit.record(caller, {
      action: 'renew',
      resourceType: 'invitation',
      resourceId: userId,
      resourceTarget: email,
      diff: changesOf({ expires_at: before }, { expires_at: expires }),
    });
    return { token, expires_at: expires };
  }

  /** Who a valid invitation link's token invites, and until when; a used, withdrawn or expired one is not found. */
  async invitation(token: string): Promise<{ email: string; expires_at: string }> {
    const user = await this.#invited(token);
    return { email: user.email, expires_at: user.invitation_expires_at };
  }

  /** The invited user a valid link's token names. */
  async #invited(token: string) {
    const user = await this.data.as(asSystem('accept an invitation')).users.byInvitation(tokenHash(token));
    const expires = user?.invitation_expires_at;
    if (!user?.email || user.status !== 'invited' || !expires || new Date(expires) <= this.clock()) {
      throw new NotFound(msg`This invitation link is not valid: it was used, withdrawn or is older than 7 days. Ask for a new one.`);
    }
    return { ...user, email: user.email, invitation_expires_at: expires };
  }

  /** Sets the invited person's password: their account is active from now. Returns their user id. */
  async acceptInvitation(token: string, password: string, name: string | undefined, address?: string): Promise<string> {
    const users = this.data.as(asSystem('accept an invitation')).users;
    const user = await this.#invited(token);
    const now = this.clock();
    await users.activate(user.id, {
      password_hash: await this.passwords.hash(password),
      name: name || null,
      last_sign_in_at: now.toISOString(),
    });
    this.log.info({ userId: user.id }, 'invitation accepted');
    await this.audit.record(
      { userId: user.id, userName: user.email, method: 'password', address },
      {
        action: 'register',
        resourceType: 'invitation',
        resourceId: user.id,
        resourceTarget: user.email,
        diff: changesOf({ status: 'invited', name: user.name }, { status: 'active', name: name || null }),
      },
    );
    return user.id;
  }

  /**
   * The user an email and password prove. Unknown emails, wrong passwords, disabled and invited
   * users all get the same answer after the same work; `address` is the client's, for the limit.
   */
  async signIn(typed: string, password: string, address: string): Promise<string> {
    const email = typed.trim().toLowerCase();
    const limits = signInLimits(email, address);
    // Counted before the hash: sign-ins at once cannot all slip under the limit.
    const refused = async (userId: string | null, reason: string) => {
      await this.audit.record(
        { userId, userName: email, method: 'password', address },
        { action: 'login', resourceType: 'session', resourceId: userId, resourceTarget: email, result: 'refused', reason },
      );
    };
    const attempt = this.#attempts.take(limits);
    if (!attempt) {
      await refused(null, 'Too many failed sign-ins');
      throw new Unauthenticated(msg`Too many failed sign-ins: wait a few minutes and try again`);
    }
    const users = this.data.as(SIGN_IN).users;
    const user = await users.byEmail(email);
    const matches = await this.#checked(attempt, () => this.passwords.matches(user?.password_hash, password));
    if (!user || !matches || user.status !== 'active') {
      // The log says why; the answer stays the same for every case.
      await refused(
        user?.id ?? null,
        !user
          ? 'No user with this email'
          : user.status === 'disabled'
            ? 'The account is disabled'
            : user.status === 'invited'
              ? 'The invitation was not accepted yet'
              : 'Wrong password',
      );
      throw new Unauthenticated(NOT_SIGNED_IN);
    }
    this.#attempts.forgive(attempt, [limits[1]!.key]);
    await users.account(user.id, { last_sign_in_at: this.clock().toISOString() });
    await this.audit.record(
      { userId: user.id, method: 'password', address },
      { action: 'login', resourceType: 'session', resourceId: user.id, resourceTarget: email },
    );
    return user.id;
  }

  /**
   * Notes that `caller` has just signed a browser in, where the sign-in did not note it itself
   * (with a key, or in the demo's story).
   */
  async signedIn(caller: Caller): Promise<void> {
    await this.data.as(SIGN_IN).users.account(caller.userId, { last_sign_in_at: this.clock().toISOString() });
    await this.audit.record(caller, { action: 'login', resourceType: 'session', resourceId: caller.userId });
  }

  /** Notes a sign-in refused for a key that proves nobody (the key itself is never written). */
  async keySignInRefused(address: string): Promise<void> {
    await this.audit.record(
      { userId: null, method: 'api_key', address },
      { action: 'login', resourceType: 'session', result: 'refused', reason: 'The key was not accepted' },
    );
  }

  /**
   * The user an identity provider vouches for: by verified email. An invited one is active from
   * now (the provider proved the address); an unknown address becomes a member only when sign-ups
   * are allowed. Disabled users stay out.
   */
  async userForIdentity(
    identity: { email: string; verified: boolean; name: string | null },
    allowSignups: boolean,
    address?: string,
  ): Promise<string> {
    const email = identity.email.trim().toLowerCase();
    const actor = (userId: string | null) => ({ userId, userName: email, method: 'identity_provider' as const, address });
    try {
      const userId = await this.#userForIdentity(identity, allowSignups);
      await this.audit.record(actor(userId), { action: 'login', resourceType: 'session', resourceId: userId, resourceTarget: email });
      return userId;
    } catch (error) {
      if (error instanceof Unauthenticated)
        await this.audit.record(actor(null), {
          action: 'login',
          resourceType: 'session',
          resourceTarget: email,
          result: 'refused',
          reason: error.message,
        });
      throw error;
    }
  }

  /** Notes a sign-in the identity provider did not complete. */
  async identitySignInRefused(reason: string, address?: string): Promise<void> {
    await this.audit.record(
      { userId: null, method: 'identity_provider', address },
      { action: 'login', resourceType: 'session', result: 'refused', reason },
    );
  }

  async #userForIdentity(identity: { email: string; verified: boolean; name: string | null }, allowSignups: boolean): Promise<string> {
    if (!identity.verified) throw new Unauthenticated(msg`The identity provider has not verified this email address`);
    const email = identity.email.trim().toLowerCase();
    const now = this.clock().toISOString();
    const users = this.data.as(asSystem('sign in through the identity provider')).users;
    const user = await users.byEmail(email);
    if (user?.status === 'disabled') throw new Unauthenticated(msg`This account is disabled: ask an admin`);
    // The provider vouched for the address (an unverified one was refused above): Settings show it as verified.
    if (user?.status === 'invited')
      await users.activate(user.id, { last_sign_in_at: now, email_verified: 1, name: user.name ?? identity.name });
    else if (user) await users.account(user.id, { last_sign_in_at: now, email_verified: 1 });
    if (user) return user.id;
    if (!allowSignups) throw new Unauthenticated(msg`${email} is not on this team: ask an admin for an invitation`);
    const id = randomUUID();
    const added = await users.invite({
      id,
      email,
      name: identity.name,
      role: 'member',
      status: 'active',
      password_hash: null,
      created_at: now,
      invited_by: null,
      invitation_hash: null,
      invitation_expires_at: null,
    });
    // Two first sign-ins at once: the other made the user.
    if (!added) return this.#userForIdentity(identity, false);
    await users.account(id, { last_sign_in_at: now, email_verified: 1 });
    this.log.info({ userId: id }, 'member signed up through the identity provider');
    return id;
  }

  /** Ends every session cookie of the caller's issued until now. */
  async endSessions(caller: Caller): Promise<void> {
    const now = this.clock().toISOString();
    await this.data.as(caller).users.account(caller.userId, { sessions_since: now });
    await this.audit.record(caller, { action: 'logout', resourceType: 'session', resourceId: caller.userId });
    await this.hooks.endBrowserSessions(caller, { userId: caller.userId, issuedBefore: now }, 'Signed out');
  }

  /**
   * Sets a new password when the current one is right (the same limit as a sign-in applies):
   * every session of the user issued until now ends, the caller's own included (it gets a new one).
   */
  async changePassword(caller: Caller, current: string, next: string, address: string): Promise<void> {
    const users = this.data.as(caller).users;
    const user = await users.get(caller.userId);
    if (!user?.password_hash) throw new Conflict(msg`You sign in with a key or an identity provider: there is no password to change`);
    const attempt = this.#attempts.take(signInLimits(user.email ?? user.id, address));
    if (!attempt) throw new Invalid(['current_password'], msg`Too many wrong passwords: wait a few minutes`);
    if (!(await this.#checked(attempt, () => this.passwords.matches(user.password_hash, current)))) {
      throw new Invalid(['current_password'], msg`This is not your current password`);
    }
    this.#attempts.forgive(attempt);
    const now = this.clock().toISOString();
    await users.account(user.id, { password_hash: await this.passwords.hash(next), sessions_since: now });
    this.log.info({ userId: user.id }, 'password changed');
    await this.audit.record(caller, {
      action: 'write',
      resourceType: 'user',
      resourceId: user.id,
      resourceTarget: user.email,
      diff: changesOf({ password: 'x' }, { password: 'y' }, ['password']),
    });
    await this.hooks.endBrowserSessions(caller, { userId: user.id, issuedBefore: now }, 'The password was changed');
  }

  async patchMember(caller: Caller, userId: string, patch: MemberPatch): Promise<Member> {
    const now = this.clock().toISOString();
    let before: UserRecord | undefined;
    let endsSessions = false;
    const changed = await this.data.as(caller).users.manage(userId, (user, activeOwners) => {
      before = user;
      const changes: UserChanges = {};
      const losesOwner =
        user.role === 'owner' &&
        user.status === 'active' &&
        ((patch.role !== undefined && patch.role !== 'owner') || patch.status === 'disabled');
      if (losesOwner && activeOwners <= 1) throw new Conflict(msg`At least one active owner must remain`);
      if (patch.role !== undefined && patch.role !== user.role) {
        changes.role = patch.role;
        changes.sessions_since = now;
      }
      if (patch.max_running_sandboxes !== undefined) changes.max_running_sandboxes = patch.max_running_sandboxes;
      if (patch.max_sandboxes !== undefined) changes.max_sandboxes = patch.max_sandboxes;
      if (patch.monthly_cost_limit !== undefined) changes.monthly_cost_limit = patch.monthly_cost_limit;
      if (patch.status !== undefined && patch.status !== user.status) {
        if (user.status === 'invited') throw new Conflict(msg`An invited user becomes active by accepting the invitation`);
        changes.status = patch.status;
        changes.sessions_since = now;
      }
      endsSessions = changes.sessions_since !== undefined;
      return changes;
    });
    if (!changed) throw new NotFound(msg`User ${userId} not found`);
    const fields = ['role', 'status', 'max_running_sandboxes', 'max_sandboxes'] as const;
    const pick = (user: UserRecord | undefined) => Object.fromEntries(fields.map((field) => [field, user?.[field] ?? null]));
    await this.audit.record(caller, {
      action: 'write',
      resourceType: 'user',
      resourceId: userId,
      resourceTarget: changed.email,
      diff: changesOf(pick(before), pick(changed)),
    });
    if (endsSessions) {
      const reason =
        changed.status === 'disabled'
          ? 'The user was disabled'
          : changed.role !== before?.role
            ? 'Their role changed'
            : 'Their status changed';
      await this.hooks.endBrowserSessions(caller, { userId, issuedBefore: now }, reason);
    }
    if (patch.status === 'disabled') {
      await this.data.as(asSystem('end a user’s access', userId)).apiKeys.deleteAll(userId);
      await this.hooks.pauseSandboxesOf(userId);
    }
    this.log.info({ userId, by: caller.userId, role: patch.role, status: patch.status }, 'user changed');
    const running = await this.hooks.runningSandboxes([userId]);
    return this.#member(changed, running.get(userId) ?? 0);
  }

  /** Deletes a user: their keys, settings, secrets and tokens go; their conversations and sandboxes stay (paused) for admins. */
  async deleteMember(caller: Caller, userId: string): Promise<void> {
    let email: string | null = null;
    const deleted = await this.data.as(caller).users.remove(userId, (user, activeOwners) => {
      email = user.email;
      if (user.role === 'owner' && user.status === 'active' && activeOwners <= 1)
        throw new Conflict(msg`At least one active owner must remain`);
    });
    if (!deleted) throw new NotFound(msg`User ${userId} not found`);
    await this.hooks.pauseSandboxesOf(userId);
    await this.hooks.forgetUserData(asSystem('forget a deleted user', userId));
    this.log.info({ userId, by: caller.userId }, 'user deleted');
    await this.audit.record(caller, { action: 'delete', resourceType: 'user', resourceId: userId, resourceTarget: email });
    await this.hooks.endBrowserSessions(caller, { userId }, 'The user was deleted', email);
  }
}
