import { msg } from '@lingui/core/macro';
import { NotFound } from '../domain-errors';
import type { ApiKeyRecord, ApiKeysStore } from '../store/api-keys-store';
import type { Subject } from './caller';
import { authorize, requireEveryone } from './decide';
import type { Action } from './policy';

/** Users' API keys as `subject` may reach them: a user's own; found by hash or id only to identify a request (see server/authz/policy.ts). */
export class ApiKeyRecords {
  constructor(
    private readonly store: ApiKeysStore,
    private readonly subject: Subject,
  ) {}

  #authorize(action: Action<'api_key'>, userId: string): void {
    authorize(this.subject, 'api_key', action, { ownerId: userId }, () => new NotFound(msg`API key not found`));
  }

  async insert(key: Parameters<ApiKeysStore['insert']>[0]): Promise<ApiKeyRecord> {
    this.#authorize('create', key.user_id);
    return this.store.insert(key);
  }

  async byHash(hash: string): Promise<ApiKeyRecord | undefined> {
    requireEveryone(this.subject, 'api_key', 'read');
    return this.store.byHash(hash);
  }

  async byId(id: number): Promise<ApiKeyRecord | undefined> {
    requireEveryone(this.subject, 'api_key', 'read');
    return this.store.byId(id);
  }

  async list(userId: string): Promise<ApiKeyRecord[]> {
    this.#authorize('read', userId);
    return this.store.list(userId);
  }

  async delete(userId: string, id: number): Promise<boolean> {
    this.#authorize('delete', userId);
    return this.store.delete(userId, id);
  }

  async deleteAll(userId: string): Promise<void> {
    this.#authorize('delete', userId);
    return this.store.deleteAll(userId);
  }

  async touch(id: number, at: string): Promise<void> {
    requireEveryone(this.subject, 'api_key', 'update');
    return this.store.touch(id, at);
  }

  async touchFirst(id: number, at: string): Promise<boolean> {
    requireEveryone(this.subject, 'api_key', 'update');
    return this.store.touchFirst(id, at);
  }
}
