import { msg } from '@lingui/core/macro';
import { NotFound } from '../domain-errors';
import { type SettingsStore, TEAM_DEFAULTS_ROW } from '../store/settings-store';
import type { Subject } from './caller';
import { authorize, requireScope } from './decide';
import type { Action } from './policy';

/** Settings documents as `subject` may reach them: a user's own, and the team's defaults (see server/authz/policy.ts). */
export class SettingsDocuments {
  constructor(
    private readonly store: SettingsStore,
    private readonly subject: Subject,
  ) {}

  #authorize(action: Action<'settings'>, userId: string): void {
    authorize(this.subject, 'settings', action, { ownerId: userId }, () => new NotFound(msg`Settings not found`));
  }

  async load(userId: string): Promise<string | undefined> {
    this.#authorize('read', userId);
    return this.store.load(userId);
  }

  async update(userId: string, change: (current: string | undefined) => string): Promise<void> {
    this.#authorize('update', userId);
    return this.store.update(userId, change);
  }

  async delete(userId: string): Promise<void> {
    this.#authorize('delete', userId);
    return this.store.delete(userId);
  }

  async loadTeamDefaults(): Promise<string | undefined> {
    requireScope(this.subject, 'team_defaults', 'read');
    return this.store.load(TEAM_DEFAULTS_ROW);
  }

  async updateTeamDefaults(change: (current: string | undefined) => string): Promise<void> {
    requireScope(this.subject, 'team_defaults', 'update');
    return this.store.update(TEAM_DEFAULTS_ROW, change);
  }
}
