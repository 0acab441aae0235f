import { msg } from '@lingui/core/macro';
import type { Role } from '../../src/contract/roles';
import { Forbidden, NotFound } from '../domain-errors';
import type { NewUser, UserRecord, UsersStore } from '../store/users-store';
import { EVERY_USER } from '../store/user-scope';
import { OWNER_ID, type Subject } from './caller';
import { authorize, requireEveryone, requireScope } from './decide';

const notFound = (id: string) => () => new NotFound(msg`User ${id} not found`);

/** What a user's own account holds: the password, when their sessions began, their last sign-in, whether a provider verified their email. */
export type AccountChanges = Partial<Pick<UserRecord, 'password_hash' | 'sessions_since' | 'last_sign_in_at' | 'email_verified'>>;

/** What administering a user changes. */
export type UserChanges = Partial<
  Pick<UserRecord, 'role' | 'status' | 'max_running_sandboxes' | 'max_sandboxes' | 'monthly_cost_limit' | 'sessions_since'>
>;

/**
 * The team's users as `subject` may reach them (see server/authz/policy.ts). Besides the grants,
 * two rules hold for every change of a user: nobody changes or deletes themselves, and the owner
 * who holds the session key stays an owner (it is the way back in).
 */
export class UserRecords {
  constructor(
    private readonly store: UsersStore,
    private readonly subject: Subject,
  ) {}

  async get(id: string): Promise<UserRecord | undefined> {
    const scope = requireScope(this.subject, 'user', 'read');
    return scope === EVERY_USER || scope === id ? this.store.get(id) : undefined;
  }

  async byEmail(email: string): Promise<UserRecord | undefined> {
    requireEveryone(this.subject, 'user', 'read');
    return this.store.byEmail(email);
  }

  async byInvitation(hash: string): Promise<UserRecord | undefined> {
    requireEveryone(this.subject, 'user', 'read');
    return this.store.byInvitation(hash);
  }

  async list(offset: number, limit: number, email?: string): Promise<UserRecord[]> {
    requireEveryone(this.subject, 'user', 'read');
    return this.store.list(offset, limit, email);
  }

  async count(email?: string): Promise<number> {
    requireEveryone(this.subject, 'user', 'read');
    return this.store.count(email);
  }

  /** Adds an invited (or signed-up) user with their role; `false` when one has that email already. */
  async invite(user: NewUser): Promise<boolean> {
    authorize(this.subject, 'user', 'invite', { ownerId: user.id, role: user.role as Role }, notFound(user.id));
    return this.store.insert(user);
  }

  /** A new invitation for user `id`, allowed as inviting them with their role is: `renew` makes it (or throws) from the user as stored. */
  async renewInvitation(
    id: string,
    renew: (user: UserRecord) => Pick<UserRecord, 'invitation_hash' | 'invitation_expires_at'>,
  ): Promise<void> {
    const user = await this.get(id);
    if (!user) throw notFound(id)();
    authorize(this.subject, 'user', 'invite', { ownerId: id, role: user.role as Role }, notFound(id));
    await this.store.update(id, renew(user));
  }

  /** Changes a user's own account (their password, sessions, last sign-in). */
  async account(id: string, changes: AccountChanges): Promise<void> {
    authorize(this.subject, 'user', 'account', { ownerId: id }, notFound(id));
    await this.store.update(id, changes);
  }

  /** An invited user's account becomes active (an invitation accepted, or an identity provider vouching for the address). */
  async activate(id: string, changes: AccountChanges & Pick<UserRecord, 'name'>): Promise<void> {
    authorize(this.subject, 'user', 'account', { ownerId: id }, notFound(id));
    await this.store.update(id, { ...changes, status: 'active', invitation_hash: null, invitation_expires_at: null });
  }

  /**
   * Administers user `id` under the team lock: `change` sees them and how many active owners there
   * are, and returns the changes (or throws); `undefined` when there is no such user.
   */
  async manage(id: string, change: (user: UserRecord, activeOwners: number) => UserChanges): Promise<UserRecord | undefined> {
    return this.store.changeUnderTeamLock(id, (user, activeOwners) => {
      this.#mayAdminister(user, 'update');
      const changes = change(user, activeOwners);
      if (changes.role !== undefined) authorize(this.subject, 'user', 'update', { ownerId: id, role: changes.role as Role }, notFound(id));
      return changes;
    });
  }

  /** Deletes user `id` under the team lock once `check` passes (it throws otherwise); the user deleted, `undefined` when none. */
  async remove(id: string, check: (user: UserRecord, activeOwners: number) => void): Promise<UserRecord | undefined> {
    return this.store.changeUnderTeamLock(id, (user, activeOwners) => {
      this.#mayAdminister(user, 'delete');
      check(user, activeOwners);
      return 'delete';
    });
  }

  #mayAdminister(user: UserRecord, action: 'update' | 'delete'): void {
    if (user.id === this.subject.userId) {
      throw new Forbidden(action === 'update' ? msg`You cannot change yourself` : msg`You cannot delete yourself`);
    }
    if (user.id === OWNER_ID)
      throw new Forbidden(msg`The owner who holds the session key cannot be given another role, disabled or deleted`);
    authorize(this.subject, 'user', action, { ownerId: user.id, role: user.role as Role }, notFound(user.id));
  }
}
