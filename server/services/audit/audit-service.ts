import { msg } from '@lingui/core/macro';
import { isAdminRole } from '../../../src/contract/roles';
import {
  type AuditAction,
  type AuditAuthMethod,
  type AuditDiff,
  type AuditLog,
  type AuditLogPage,
  type AuditResourceType,
  type AuditResult,
  type AuditVerification,
  parseAuditQuery,
} from '../../../src/contract/audit';
import { type Caller, isSystem, type Subject } from '../../authz/caller';
import type { Refusal } from '../../authz/decide';
import type { Resource } from '../../authz/policy';
import { Forbidden, Invalid, verbatim } from '../../domain-errors';
import type { Logger } from '../../logger';
import { repeatFromNow } from '../../repeat-from-now';
import { chainProblem } from '../../store/audit-chain';
import type { AuditLogQuery, AuditLogRecord, AuditLogStore } from '../../store/audit-log-store';

/** Who did it, when not a caller of the API: someone signing in (maybe nobody known). */
export interface AuditActor {
  userId: string | null;
  /** What they gave as their name (the email typed at a refused sign-in). */
  userName?: string | null;
  method: AuditAuthMethod;
  address?: string;
  apiKeyId?: number;
}

/** What happened, on what, and how it ended. */
export interface AuditEvent {
  action: AuditAction;
  resourceType: AuditResourceType;
  resourceId?: string | null;
  resourceTarget?: string | null;
  /** `done` when absent. */
  result?: AuditResult;
  reason?: string | null;
  diff?: AuditDiff;
}

/** Entries an export holds at most: a larger one is a narrower filter's job. */
export const AUDIT_EXPORT_LIMIT = 100_000;
const VERIFY_BATCH = 1000;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

const isActor = (who: Subject | AuditActor): who is AuditActor => 'method' in who;

/** The policy's resources in the audit log's words. */
const REFUSED_RESOURCES: Record<Resource, AuditResourceType> = {
  sandbox: 'sandbox',
  conversation: 'conversation',
  start_task: 'conversation',
  event: 'conversation',
  settings: 'settings',
  secrets: 'secret',
  api_key: 'api_key',
  usage: 'user',
  user: 'user',
  team_defaults: 'team_defaults',
  llm_call: 'conversation',
};
/** The policy's actions that have a word of their own in the log; the rest (messages, runs…) are writes. */
const REFUSED_ACTIONS: Partial<Record<string, AuditAction>> = {
  read: 'read',
  create: 'create',
  invite: 'create',
  delete: 'delete',
  pause: 'pause',
  resume: 'resume',
};

/**
 * The audit log: what services record (`record`, never failing what was recorded), what owners
 * and admins read and export, whether the chain holds, and its retention.
 */
export class AuditService {
  #stopRetention: (() => void) | undefined;

  constructor(
    private readonly store: AuditLogStore,
    private readonly log: Logger,
    /** Days an entry is kept; 0: for ever. */
    private readonly retentionDays = 0,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Appends an entry for `who` (a caller, the server at a task, or someone signing in). A failure
   * to write it is logged: what was done is done, and its caller's answer does not change.
   */
  async record(who: Subject | AuditActor, event: AuditEvent): Promise<void> {
    const actor = isActor(who)
      ? who
      : isSystem(who)
        ? undefined
        : { userId: who.userId, method: who.authType, address: who.address, apiKeyId: who.apiKeyId ?? who.signedInWithKey };
    try {
      await this.store.append({
        user_id: actor?.userId ?? null,
        ...(actor && 'userName' in actor ? { user_name: actor.userName ?? null } : {}),
        auth_method: actor?.method ?? 'server',
        api_key_id: actor?.apiKeyId,
        ip: actor?.address ?? null,
        action: event.action,
        resource_type: event.resourceType,
        resource_id: event.resourceId ?? null,
        resource_target: event.resourceTarget ?? null,
        result: event.result ?? 'done',
        reason: event.reason ?? (isActor(who) || !isSystem(who) ? null : who.task),
        diff: JSON.stringify(event.diff ?? {}),
      });
    } catch (error) {
      this.log.error({ err: error, action: event.action, resource: event.resourceType }, 'could not write an audit log entry');
    }
  }

  /** Records a refusal of the policy: who tried what on whose row, and what they were told. */
  async recordRefusal(subject: Subject, refusal: Refusal & { id: string | null }, error: Error): Promise<void> {
    await this.record(subject, {
      action: REFUSED_ACTIONS[refusal.action] ?? 'write',
      resourceType: REFUSED_RESOURCES[refusal.resource],
      resourceId: refusal.id,
      result: 'refused',
      reason: `${refusal.resource} ${refusal.action} of user ${refusal.ownerId}'s: ${error.message}`,
    });
  }

  #allow(caller: Caller): void {
    if (!isAdminRole(caller.role)) throw new Forbidden(msg`Only owners and admins can read the audit log`);
  }

  #query(q: string | undefined): AuditLogQuery {
    const parsed = parseAuditQuery(q ?? '');
    if ('problem' in parsed) throw new Invalid(['q'], verbatim(parsed.problem), q);
    const { filter } = parsed;
    return {
      username: filter.username,
      action: filter.action,
      resourceType: filter.resource_type,
      resourceId: filter.resource_id,
      result: filter.result,
      from: filter.date_from && new Date(filter.date_from).toISOString(),
      // A date alone takes in its whole day.
      to: filter.date_to && new Date(/T/.test(filter.date_to) ? filter.date_to : `${filter.date_to}T23:59:59.999Z`).toISOString(),
    };
  }

  async page(caller: Caller, q: string | undefined, offset = 0, limit = 50): Promise<AuditLogPage> {
    this.#allow(caller);
    const query = this.#query(q);
    const [rows, count] = await Promise.all([this.store.page(query, offset, limit), this.store.count(query)]);
    return { audit_logs: rows.map(toAuditLog), count };
  }

  /** Every entry `q` matches, newest first (up to AUDIT_EXPORT_LIMIT). */
  async export(caller: Caller, q: string | undefined): Promise<AuditLog[]> {
    this.#allow(caller);
    return (await this.store.page(this.#query(q), 0, AUDIT_EXPORT_LIMIT)).map(toAuditLog);
  }

  /** Reads the whole chain from its anchor: the first entry that does not hold, if any. */
  async verify(caller?: Caller): Promise<AuditVerification> {
    if (caller) this.#allow(caller);
    const anchor = await this.store.anchor();
    let previous = anchor;
    let checked = 0;
    for (;;) {
      const batch = await this.store.chainFrom(previous.seq, VERIFY_BATCH);
      for (const entry of batch) {
        const problem = chainProblem(previous, entry);
        if (problem) {
          return {
            ok: false,
            checked,
            broken_at: { seq: problem === 'missing' ? previous.seq + 1 : entry.seq, id: problem === 'missing' ? null : entry.id, problem },
            anchor_seq: anchor.seq || null,
          };
        }
        checked++;
        previous = { seq: entry.seq, hash: entry.hash };
      }
      if (batch.length < VERIFY_BATCH) return { ok: true, checked, broken_at: null, anchor_seq: anchor.seq || null };
    }
  }

  /** Removes the entries older than the retention, recording what went (no-op when kept for ever). */
  async prune(): Promise<number> {
    if (this.retentionDays <= 0) return 0;
    const cutoff = new Date(this.now().getTime() - this.retentionDays * DAY_MS).toISOString();
    const pruned = await this.store.prune(cutoff);
    if (!pruned) return 0;
    await this.record(
      { userId: null, method: 'server' },
      {
        action: 'prune',
        resourceType: 'audit_log',
        reason: `Entries older than ${this.retentionDays} days (AUDIT_RETENTION_DAYS)`,
        diff: {
          removed_entries: { old: pruned.removed, new: null, secret: false },
          // What went: seqs from this one to the anchor's, written over these times.
          removed_from_seq: { old: pruned.fromSeq, new: null, secret: false },
          removed_oldest_time: { old: pruned.oldest, new: null, secret: false },
          removed_newest_time: { old: pruned.newest, new: null, secret: false },
          chain_starts_after_seq: { old: null, new: pruned.anchor.seq, secret: false },
          anchor_hash: { old: null, new: pruned.anchor.hash, secret: false },
        },
      },
    );
    this.log.info({ removed: pruned.removed, throughSeq: pruned.anchor.seq }, 'pruned the audit log');
    return pruned.removed;
  }

  /** Prunes now and every hour until `close` (any instance may: prunes are serialised and idempotent). */
  startRetention(): void {
    if (this.retentionDays <= 0 || this.#stopRetention) return;
    this.#stopRetention = repeatFromNow(
      HOUR_MS,
      () => this.prune(),
      (error) => this.log.warn({ err: error }, 'could not prune the audit log'),
    );
  }

  close(): void {
    this.#stopRetention?.();
    this.#stopRetention = undefined;
  }
}

export function toAuditLog(row: AuditLogRecord): AuditLog {
  return {
    id: row.id,
    seq: row.seq,
    time: row.time,
    user_id: row.user_id,
    user_name: row.user_name,
    auth_method: row.auth_method as AuditLog['auth_method'],
    api_key_name: row.api_key_name,
    ip: row.ip,
    action: row.action as AuditAction,
    resource_type: row.resource_type as AuditResourceType,
    resource_id: row.resource_id,
    resource_target: row.resource_target,
    result: row.result as AuditResult,
    reason: row.reason,
    diff: JSON.parse(row.diff) as AuditDiff,
    prev_hash: row.prev_hash,
    hash: row.hash,
  };
}
