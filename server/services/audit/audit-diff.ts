import type { AuditDiff } from '../../../src/contract/audit';

type DiffValue = AuditDiff[string]['old'];

/** A value as a diff holds it: scalars and lists of names as they are, anything else as its JSON. */
function diffValue(value: unknown): DiffValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  return JSON.stringify(value);
}

const same = (a: unknown, b: unknown) => JSON.stringify(diffValue(a)) === JSON.stringify(diffValue(b));

/**
 * The fields that differ between `before` and `after`, each with its old and new value; the
 * fields named in `secrets` only by name (`secret: true`, both values null), whatever they hold.
 */
export function changesOf(before: Record<string, unknown>, after: Record<string, unknown>, secrets: readonly string[] = []): AuditDiff {
  const diff: AuditDiff = {};
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (same(before[field], after[field])) continue;
    diff[field] = secrets.includes(field)
      ? { old: null, new: null, secret: true }
      : { old: diffValue(before[field]), new: diffValue(after[field]), secret: false };
  }
  return diff;
}

/** Secrets named, none of their values: each name that came, went or changed (`changed`: its value changed). */
export function secretNames(before: readonly string[], after: readonly string[], changed: readonly string[] = []): AuditDiff {
  const diff: AuditDiff = {};
  for (const name of new Set([...before, ...after, ...changed]))
    if (!before.includes(name) || !after.includes(name) || changed.includes(name)) diff[name] = { old: null, new: null, secret: true };
  return diff;
}
