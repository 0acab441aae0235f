import type { AuditLog } from '../../../src/contract/audit';

const COLUMNS = [
  'time',
  'seq',
  'id',
  'user_id',
  'user_name',
  'auth_method',
  'api_key_name',
  'ip',
  'action',
  'resource_type',
  'resource_id',
  'resource_target',
  'result',
  'reason',
  'diff',
  'prev_hash',
  'hash',
] as const satisfies readonly (keyof AuditLog)[];

/** A CSV field (RFC 4180); one a spreadsheet would run as a formula is prefixed with '. */
function field(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The entries as CSV, a header line first; `diff` as its JSON. */
export function auditCsv(entries: AuditLog[]): string {
  const lines = [COLUMNS.join(','), ...entries.map((entry) => COLUMNS.map((column) => field(entry[column])).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}
