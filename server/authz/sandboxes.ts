import { msg } from '@lingui/core/macro';
import { NotFound } from '../domain-errors';
import type { SandboxesStore, SandboxRecord } from '../store/sandboxes-store';
import { EVERY_USER } from '../store/user-scope';
import type { Subject } from './caller';
import { allows, authorize, requireEveryone, requireScope } from './decide';
import type { Action } from './policy';

const notFound = (id: string) => () => new NotFound(msg`Sandbox ${id} not found`);

/** The sandbox registry as `subject` may reach it (see server/authz/policy.ts). */
export class SandboxRecords {
  constructor(
    private readonly store: SandboxesStore,
    private readonly subject: Subject,
  ) {}

  /** Those of `records` the subject may see (the registry's rows carry no scope of their own). */
  #visible(records: readonly SandboxRecord[]): readonly SandboxRecord[] {
    const scope = requireScope(this.subject, 'sandbox', 'read');
    return scope === EVERY_USER ? records : records.filter((record) => record.created_by_user_id === scope);
  }

  /** Those the subject may see, newest first (frozen rows: a cached list's). */
  async list(): Promise<readonly SandboxRecord[]> {
    return this.#visible(await this.store.list());
  }

  async get(id: string): Promise<SandboxRecord | undefined> {
    const record = await this.store.get(id);
    return record && this.#visible([record])[0];
  }

  /** Those of `ids` that exist and the subject may see, in no particular order. */
  async getMany(ids: string[]): Promise<readonly SandboxRecord[]> {
    return this.#visible(await this.store.getMany(ids));
  }

  /** Whether the subject may do `action` to `record` (one it has read). */
  may(action: Action<'sandbox'>, record: SandboxRecord): boolean {
    return allows(this.subject, 'sandbox', action, { ownerId: record.created_by_user_id });
  }

  /** Sandbox `id` if the subject may do `action` to it: NotFound when it may not see it, Forbidden (saying why) when it may only see it. */
  async authorize(action: Action<'sandbox'>, id: string): Promise<SandboxRecord> {
    const record = await this.store.get(id);
    if (!record) throw notFound(id)();
    authorize(this.subject, 'sandbox', action, { ownerId: record.created_by_user_id }, notFound(id));
    return record;
  }

  /** How many exist, everyone's: what MAX_SANDBOXES counts. */
  async count(): Promise<number> {
    requireEveryone(this.subject, 'sandbox', 'read');
    return this.store.count();
  }

  async insert(record: Parameters<SandboxesStore['insert']>[0] & { created_by_user_id: string }): Promise<void> {
    authorize(this.subject, 'sandbox', 'create', { ownerId: record.created_by_user_id }, notFound(record.id));
    await this.store.insert(record);
  }

  async update(id: string, changes: Parameters<SandboxesStore['update']>[1]): Promise<void> {
    const record = await this.store.get(id);
    if (!record) return; // deleted meanwhile: nothing to record
    authorize(this.subject, 'sandbox', 'update', { ownerId: record.created_by_user_id }, notFound(id));
    await this.store.update(id, changes);
  }

  async delete(id: string): Promise<void> {
    await this.authorize('delete', id);
    await this.store.delete(id);
  }
}
