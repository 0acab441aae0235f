import type { Role } from '../../src/contract/roles';
import { type DomainError, Forbidden, type NotFound } from '../domain-errors';
import { EVERY_USER, type UserScope } from '../store/user-scope';
import { isSystem, type Subject } from './caller';
import { type Action, type Reach, refusalReason, type Resource, ROLE_GRANTS, SYSTEM_TASKS } from './policy';

/** How far `subject`'s grant for `action` on `resource` reaches; `undefined`: it has none. */
export function reachOf<R extends Resource>(subject: Subject, resource: R, action: Action<R>): Reach | undefined {
  const grants = isSystem(subject) ? SYSTEM_TASKS[subject.task] : ROLE_GRANTS[subject.role];
  return (grants as Partial<Record<Resource, Partial<Record<string, Reach>>>>)[resource]?.[action];
}

/** Whose rows the grant reaches, as a store's scope: everyone's, the subject's own, or none (`undefined`). */
export function scopeOf<R extends Resource>(subject: Subject, resource: R, action: Action<R>): UserScope | undefined {
  const reach = reachOf(subject, resource, action);
  if (reach === undefined) return undefined;
  if (reach === 'own') return subject.userId === '' ? undefined : subject.userId;
  return EVERY_USER;
}

/** What a grant is checked against: whose the row is and, for users, the role it is about. */
export interface Target {
  ownerId: string;
  role?: Role;
}

/** Whether `subject` may do `action` to a row of `target`'s. */
export function allows<R extends Resource>(subject: Subject, resource: R, action: Action<R>, target: Target): boolean {
  const reach = reachOf(subject, resource, action);
  if (reach === 'any') return true;
  if (reach === 'own') return subject.userId !== '' && target.ownerId === subject.userId;
  if (reach === 'non-owner') return target.role !== 'owner';
  return false;
}

/** What the policy refused, kept on the error it throws: the data-access layer reports it (the audit log). */
export interface Refusal {
  resource: Resource;
  action: string;
  /** Whose row it was. */
  ownerId: string;
}

const refusals = new WeakMap<DomainError, Refusal>();

/** The policy's refusal `error` stands for, if it is one (a row that merely does not exist is not). */
export const refusalOf = (error: unknown): Refusal | undefined => (error instanceof Error ? refusals.get(error as DomainError) : undefined);

/**
 * Refuses `action` on a row the subject may not do it to: Forbidden, saying why, when it has no
 * grant for the action at all or may see the row but not do this; NotFound (as if the row did not
 * exist) when its grant reaches other rows and it may not see this one.
 */
export function authorize<R extends Resource>(
  subject: Subject,
  resource: R,
  action: Action<R>,
  target: Target,
  notFound: () => NotFound,
): void {
  if (allows(subject, resource, action, target)) return;
  const seen = action !== 'read' && allows(subject, resource, 'read' as Action<R>, target);
  const error = seen || reachOf(subject, resource, action) === undefined ? refused(subject, resource, action) : notFound();
  refusals.set(error, { resource, action, ownerId: target.ownerId });
  throw error;
}

/** Forbidden, saying why (see `refusalReason`). */
export const refused = <R extends Resource>(subject: Subject, resource: R, action: Action<R>): Forbidden =>
  new Forbidden(refusalReason(resource, action, isSystem(subject) ? subject.task : undefined));

/** Whose rows `action` reaches, as a store's scope; refused outright when the subject has no grant for it at all. */
export function requireScope<R extends Resource>(subject: Subject, resource: R, action: Action<R>): UserScope {
  const scope = scopeOf(subject, resource, action);
  if (scope === undefined) throw refused(subject, resource, action);
  return scope;
}

/** Refuses unless the grant reaches everyone's rows (what counts or sweeps across users). */
export function requireEveryone<R extends Resource>(subject: Subject, resource: R, action: Action<R>): void {
  if (scopeOf(subject, resource, action) !== EVERY_USER) throw refused(subject, resource, action);
}
