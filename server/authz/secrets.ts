import { msg } from '@lingui/core/macro';
import { NotFound } from '../domain-errors';
import type { SecretsStore, SecretUpdateOutcome, StoredCustomSecret, StoredProviderToken } from '../store/secrets-store';
import type { Subject } from './caller';
import { authorize } from './decide';
import type { Action } from './policy';

/** Git provider tokens and custom secrets as `subject` may reach them: a user's own (see server/authz/policy.ts). */
export class SecretRecords {
  constructor(
    private readonly store: SecretsStore,
    private readonly subject: Subject,
  ) {}

  #authorize(action: Action<'secrets'>, userId: string): void {
    authorize(this.subject, 'secrets', action, { ownerId: userId }, () => new NotFound(msg`Secrets not found`));
  }

  async listProviderTokens(userId: string): Promise<readonly StoredProviderToken[]> {
    this.#authorize('read', userId);
    return this.store.listProviderTokens(userId);
  }

  async updateProviderTokens(userId: string, change: (current: StoredProviderToken[]) => StoredProviderToken[]): Promise<void> {
    this.#authorize('update', userId);
    return this.store.updateProviderTokens(userId, change);
  }

  async recordProviderCheck(userId: string, checked: Pick<StoredProviderToken, 'provider' | 'token' | 'host'>, checkedAt: string | null) {
    this.#authorize('update', userId);
    return this.store.recordProviderCheck(userId, checked, checkedAt);
  }

  async listCustomSecrets(userId: string): Promise<StoredCustomSecret[]> {
    this.#authorize('read', userId);
    return this.store.listCustomSecrets(userId);
  }

  async insertCustomSecret(userId: string, secret: StoredCustomSecret): Promise<boolean> {
    this.#authorize('update', userId);
    return this.store.insertCustomSecret(userId, secret);
  }

  async updateCustomSecret(userId: string, name: string, changes: Partial<StoredCustomSecret>): Promise<SecretUpdateOutcome> {
    this.#authorize('update', userId);
    return this.store.updateCustomSecret(userId, name, changes);
  }

  async upsertCustomSecrets(userId: string, secrets: Parameters<SecretsStore['upsertCustomSecrets']>[1]): Promise<void> {
    this.#authorize('update', userId);
    return this.store.upsertCustomSecrets(userId, secrets);
  }

  async deleteCustomSecret(userId: string, name: string): Promise<boolean> {
    this.#authorize('update', userId);
    return this.store.deleteCustomSecret(userId, name);
  }

  async deleteAll(userId: string): Promise<void> {
    this.#authorize('delete', userId);
    return this.store.deleteAll(userId);
  }
}
