import { msg } from '@lingui/core/macro';
import { NotFound } from '../domain-errors';
import type { LlmDayFigures, SandboxRun, UsageStore } from '../store/usage-store';
import { EVERY_USER, type UserScope } from '../store/user-scope';
import type { Subject } from './caller';
import { requireScope } from './decide';

/** Usage as `subject` may read and record it (see server/authz/policy.ts). */
export class UsageRecords {
  constructor(
    private readonly store: UsageStore,
    private readonly subject: Subject,
  ) {}

  /** Whose usage a read covers: `userId`'s when given (404 for a user the subject may not see), else all it may see. */
  #readScope(userId: string | undefined): UserScope {
    const scope = requireScope(this.subject, 'usage', 'read');
    if (userId === undefined) return scope;
    if (scope !== EVERY_USER && scope !== userId) throw new NotFound(msg`User ${userId} not found`);
    return userId;
  }

  /** Whose usage a read of `userId`'s (or, without it, of all the subject may see) covers: one user's id, or `null` for everyone's. */
  whose(userId?: string): string | null {
    const scope = this.#readScope(userId);
    return scope === EVERY_USER ? null : scope;
  }

  async llmByDay(userId: string | undefined, from: string, to: string): Promise<LlmDayFigures[]> {
    return this.store.llmByDay(this.#readScope(userId), from, to);
  }

  async costSince(userId: string | undefined, since: string): Promise<Map<string, number>> {
    return this.store.costSince(this.#readScope(userId), since);
  }

  async sandboxRuns(userId: string | undefined, from: string, to: string): Promise<SandboxRun[]> {
    return this.store.sandboxRuns(this.#readScope(userId), from, to);
  }

  async startsByDay(userId: string | undefined, from: string, to: string) {
    return this.store.startsByDay(this.#readScope(userId), from, to);
  }

  /** Records a conversation `userId` started. */
  async recordStart(start: { user_id: string; conversation_id: string; created_at: string }): Promise<void> {
    this.#recordFor(start.user_id);
    await this.store.recordStart(start);
  }

  async running(sandbox: { sandbox_id: string; user_id: string; runtime: string }, now: string): Promise<void> {
    this.#recordFor(sandbox.user_id);
    await this.store.running(sandbox, now);
  }

  async stopped(sandboxId: string, now: string): Promise<void> {
    this.#recordFor(undefined);
    await this.store.stopped(sandboxId, now);
  }

  async lastSeenStopped(sandboxId: string): Promise<void> {
    this.#recordFor(undefined);
    await this.store.lastSeenStopped(sandboxId);
  }

  /** Refuses unless the subject may record `userId`'s usage (anyone's, when `undefined`). */
  #recordFor(userId: string | undefined): void {
    const scope = requireScope(this.subject, 'usage', 'record');
    if (scope !== EVERY_USER && scope !== userId) {
      const shown = userId ?? '';
      throw new NotFound(msg`User ${shown} not found`);
    }
  }
}
