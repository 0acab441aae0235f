import { msg } from '@lingui/core/macro';
import {
  MAX_PAGE_SIZE,
  SANDBOX_STATUSES,
  type SandboxInfo,
  type SandboxSearchQuery,
  type SandboxSpec,
  type SandboxStatus,
} from '../../../src/contract/sandboxes';
import { asSystem, type Caller, type Subject } from '../../authz/caller';
import type { DataAccess } from '../../authz/data-access';
import { Invalid } from '../../domain-errors';
import type { SpecCatalog } from '../../sandboxes/spec-catalog';
import { sessionKeyCheck } from '../../session-key';
import type { SandboxRecord } from '../../store/sandboxes-store';
import { paginate } from '../paging';
import type { SandboxInfos } from './sandbox-infos';
import type { SandboxOwners } from './sandbox-owners';

const CONVERSATIONS_SANDBOXES = asSystem('show the sandboxes of conversations');

function refuseTooMany(ids: string[], what: string): void {
  if (ids.length > MAX_PAGE_SIZE)
    throw new Invalid(['id'], msg`Cannot request more than ${MAX_PAGE_SIZE} ${what} at once, got ${ids.length}`);
}

/** The reads of sandboxes and their specs, each as whoever it is for may see them (see SandboxService). */
export class SandboxReads {
  constructor(
    private readonly data: DataAccess,
    private readonly specs: SpecCatalog,
    private readonly owners: SandboxOwners,
    private readonly infos: SandboxInfos,
  ) {}

  async get(subject: Subject, id: string): Promise<SandboxInfo> {
    const sandboxes = this.data.as(subject).sandboxes;
    const record = await sandboxes.authorize('read', id);
    return this.infos.shownTo(sandboxes, record, await this.infos.of(record, subject));
  }

  async getMany(subject: Subject, ids: string[]): Promise<(SandboxInfo | null)[]> {
    refuseTooMany(ids, 'sandboxes');
    // Only those asked for: a page of conversations asks for its sandboxes, most of them long gone.
    const sandboxes = this.data.as(subject).sandboxes;
    const byId = new Map((await sandboxes.getMany([...new Set(ids)])).map((record) => [record.id, record]));
    return Promise.all(
      ids.map(async (id) => {
        const record = byId.get(id);
        return record ? this.infos.shownTo(sandboxes, record, await this.infos.of(record, subject)) : null;
      }),
    );
  }

  search(subject: Subject, query: SandboxSearchQuery) {
    return this.#search(subject, query, this.data.as(subject).sandboxes.list());
  }

  async searchOwn(subject: Subject, query: SandboxSearchQuery) {
    return this.#search(subject, query, this.owners.own(subject));
  }

  async #search(subject: Subject, query: SandboxSearchQuery, listed: Promise<readonly SandboxRecord[]>) {
    const sandboxes = this.data.as(subject).sandboxes;
    const infos = (await listed).map((record) => {
      const info = this.infos.now(record) ?? this.infos.of(record, subject);
      return info instanceof Promise
        ? info.then((known) => this.infos.shownTo(sandboxes, record, known))
        : this.infos.shownTo(sandboxes, record, info);
    });
    // Only a runtime that has to be asked (or another instance) is waited for.
    const known = infos.every((info) => !(info instanceof Promise)) ? (infos as SandboxInfo[]) : await Promise.all(infos);
    const matching = known.filter(
      (info) =>
        (!query.status__eq || info.status === query.status__eq) &&
        (!query.sandbox_spec_id__eq || info.sandbox_spec_id === query.sandbox_spec_id__eq) &&
        (!query.created_by_user_id__eq || info.created_by_user_id === query.created_by_user_id__eq),
    );
    return paginate(matching, query.page_id, query.limit);
  }

  /** How many of this instance's sandboxes are in each status (every status, 0 for none). */
  async ownByStatus(subject: Subject): Promise<Map<SandboxStatus, number>> {
    const counts = new Map(SANDBOX_STATUSES.map((status) => [status, 0]));
    const infos = (await this.owners.own(subject)).map((record) => this.infos.now(record) ?? this.infos.of(record, subject));
    for (const info of await Promise.all(infos)) counts.set(info.status, (counts.get(info.status) ?? 0) + 1);
    return counts;
  }

  async ofConversations(caller: Caller, conversations: { sandbox_id: string }[]): Promise<Map<string, SandboxInfo>> {
    const own = this.data.as(caller).sandboxes;
    const records = await this.data.as(CONVERSATIONS_SANDBOXES).sandboxes.getMany([...new Set(conversations.map((c) => c.sandbox_id))]);
    const infos = await Promise.all(
      records.map(async (record) => {
        const info = await this.infos.of(record, own.may('use', record) ? caller : CONVERSATIONS_SANDBOXES);
        return [record.id, this.infos.shownTo(own, record, info)] as const;
      }),
    );
    return new Map(infos);
  }

  async madeForConversations(subject: Subject): Promise<{ id: string; conversationId: string }[]> {
    return (await this.owners.own(subject)).flatMap((record) =>
      record.conversation_id ? [{ id: record.id, conversationId: record.conversation_id }] : [],
    );
  }

  async sessionKeyMatches(id: string, given: string | string[] | undefined): Promise<boolean> {
    const sandboxes = this.data.as(asSystem('receive events from a sandbox')).sandboxes;
    const record = await sandboxes.get(id);
    return record !== undefined && sandboxes.may('use', record) && sessionKeyCheck(this.infos.sessionKey(record.session_key))(given);
  }

  async spec(specId: string | undefined): Promise<SandboxSpec | undefined> {
    const specs = await this.specs.list();
    return specId === undefined ? specs[0] : specs.find((s) => s.id === specId);
  }

  async searchSpecs(pageId: string | undefined, limit: number) {
    return paginate(await this.specs.list(), pageId, limit);
  }

  async getSpecs(ids: string[]): Promise<(SandboxSpec | null)[]> {
    refuseTooMany(ids, 'sandbox specs');
    const specs = await this.specs.list();
    return ids.map((id) => specs.find((spec) => spec.id === id) ?? null);
  }
}
