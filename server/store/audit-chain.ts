import { createHash } from 'node:crypto';
import type { AuditLogTable } from './schema';

/** What the first entry links to: nothing before it. */
export const AUDIT_GENESIS_HASH = '0'.repeat(64);

/** Where the chain starts: after the last pruned entry (seq 0 and the genesis hash when none was). */
export interface ChainAnchor {
  seq: number;
  hash: string;
}

/**
 * An entry's canonical form: its fields in a fixed order as one JSON array (no key order or
 * whitespace to vary), ending with the hash of the entry before it. Adding a field is a new
 * version of this list, kept beside this one for the entries written before.
 */
export function canonicalEntry(entry: Omit<AuditLogTable, 'hash'>): string {
  return JSON.stringify([
    'v1',
    Number(entry.seq),
    entry.id,
    entry.time,
    entry.user_id,
    entry.user_name,
    entry.auth_method,
    entry.api_key_name,
    entry.ip,
    entry.action,
    entry.resource_type,
    entry.resource_id,
    entry.resource_target,
    entry.result,
    entry.reason,
    entry.diff,
    entry.prev_hash,
  ]);
}

/** SHA-256 (hex) of the entry's canonical form, which includes the previous entry's hash. */
export const entryHash = (entry: Omit<AuditLogTable, 'hash'>): string => createHash('sha256').update(canonicalEntry(entry)).digest('hex');

export type ChainProblem = 'changed' | 'unlinked' | 'missing';

/**
 * Checks `entry` as the one after `previous`: `missing` when its seq is not the next (entries
 * removed or inserted between), `unlinked` when it does not name the previous hash, `changed` when
 * its own hash is not that of its fields.
 */
export function chainProblem(previous: ChainAnchor, entry: AuditLogTable): ChainProblem | undefined {
  if (Number(entry.seq) !== previous.seq + 1) return 'missing';
  if (entry.prev_hash !== previous.hash) return 'unlinked';
  if (entryHash(entry) !== entry.hash) return 'changed';
  return undefined;
}
