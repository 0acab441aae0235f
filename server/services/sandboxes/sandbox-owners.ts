import { msg } from '@lingui/core/macro';
import type { SandboxInfo } from '../../../src/contract/sandboxes';
import { isSystem, type Subject } from '../../authz/caller';
import type { DataAccess } from '../../authz/data-access';
import { Unavailable } from '../../domain-errors';
import type { SandboxRecord } from '../../store/sandboxes-store';
import type { InstanceRegistry, Owner } from '../instances/instance-registry';
import type { OwnerClient } from '../instances/owner-client';

/** This instance among others on one database: sandboxes of another are asked of it over HTTP. */
export interface Instances {
  registry: InstanceRegistry;
  client: OwnerClient;
}

export type ReachableOwner = Owner & { reachable: true };

type Method = 'GET' | 'POST' | 'DELETE';

/**
 * Which instance runs each sandbox when several share one database: this one's runtime runs its
 * own, and what is asked about another's goes to that instance's API. With one instance (no
 * `instances`) every sandbox is this one's.
 */
export class SandboxOwners {
  constructor(
    private readonly data: DataAccess,
    private readonly instances?: Instances,
  ) {}

  /** The instance a sandbox started here is recorded as run by; `null` when this one is alone. */
  get id(): string | null {
    return this.instances?.registry.id ?? null;
  }

  /** Takes this instance's id in the registry: nothing of its sandboxes is touched for a live twin. */
  async join(): Promise<void> {
    await this.instances?.registry.start();
  }

  /** Says in the registry that this instance stopped. */
  async leave(): Promise<void> {
    await this.instances?.registry.stop();
  }

  /**
   * Whether this instance's runtime runs it (with one instance: all of them). Among several, only
   * what it owns: a sandbox copied from SQLite is its data dir's instance's (copy-to-postgres).
   */
  mine(record: SandboxRecord): boolean {
    return !this.instances || record.owner_instance === this.instances.registry.id;
  }

  /** The sandboxes this instance's runtime runs that `subject` may see: what it watches, recovers and counts against its caps. */
  async own(subject: Subject): Promise<SandboxRecord[]> {
    return (await this.data.as(subject).sandboxes.list()).filter((record) => this.mine(record));
  }

  /** The instance that runs `record`, reachable, or the refusal that says why it is not. */
  async reachableOwner(record: SandboxRecord): Promise<ReachableOwner> {
    const owner = await this.instances!.registry.owner(record.owner_instance);
    if (!owner.reachable) throw new Unavailable(msg`Sandbox ${record.id} runs on another server instance. ${owner.detail}.`);
    return owner;
  }

  /** See SandboxService.ownerElsewhere. */
  async elsewhere(subject: Subject, id: string): Promise<ReachableOwner | undefined> {
    if (!this.instances) return undefined;
    const record = await this.data.as(subject).sandboxes.get(id);
    return record && !this.mine(record) ? this.reachableOwner(record) : undefined;
  }

  /** See SandboxService.forward. */
  forward<T>(subject: Subject, owner: ReachableOwner, method: Method, path: string, body?: unknown): Promise<T> {
    return this.instances!.client.call<T>(owner, method, path, body, isSystem(subject) ? undefined : subject);
  }

  /** Asks the instance that runs `record` (another one) to do what was asked of this one. */
  async forwardTo<T>(subject: Subject, record: SandboxRecord, method: Method, path: string): Promise<T> {
    return this.forward<T>(subject, await this.reachableOwner(record), method, path);
  }

  /**
   * A sandbox of another instance, as that instance responds for it to `subject` (a caller is
   * named, so its key comes only to one who may use it); MISSING, with the reason, when it cannot.
   */
  async foreignInfo(record: SandboxRecord, subject: Subject): Promise<SandboxInfo> {
    const owner = await this.instances!.registry.owner(record.owner_instance);
    let detail = owner.reachable ? '' : owner.detail;
    if (owner.reachable) {
      try {
        const [info] = await this.forward<(SandboxInfo | null)[]>(subject, owner, 'GET', `/v1/sandboxes?id=${record.id}`);
        if (info) return info;
        detail = `Its server instance ${owner.id} does not know it`;
      } catch (error) {
        detail = (error as Error).message;
      }
    }
    return {
      id: record.id,
      created_by_user_id: record.created_by_user_id,
      sandbox_spec_id: record.spec_id,
      status: 'MISSING',
      session_api_key: null,
      exposed_urls: null,
      created_at: record.created_at,
      status_detail: detail,
    };
  }
}
