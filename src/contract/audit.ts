import * as z from 'zod/mini';
import { integer } from './rules';

/*
 * The audit log (ours), in the shape of Coder's `GET /api/v2/audit`: `{audit_logs, count}`, each
 * entry with who, from where, what, on what, when, the result and a `diff` of
 * `{field: {old, new, secret}}` (a secret's values are never in it: `secret: true` and both null).
 * Filters are one `q` of `key:value` words, as Coder's: `action:write resource_type:user`.
 */

export const AUDIT_ACTIONS = [
  'read',
  'login',
  'logout',
  /** A browser session ended without its browser signing out: expired, or ended by a sign-out elsewhere, a password or role change, a disabled or deleted user, its API key deleted. */
  'end',
  'create',
  'write',
  'delete',
  'register',
  'renew',
  'start',
  'pause',
  'resume',
  'archive',
  /** An API key used for the first time (its later uses show as its last use). */
  'first_use',
  'prune',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_RESOURCE_TYPES = [
  'session',
  'api_key',
  'invitation',
  'user',
  'team_defaults',
  'settings',
  'mcp_server',
  'git_token',
  'secret',
  'sandbox',
  /** The Docker runtime's image of the agent server built on Settings' base image. */
  'sandbox_spec',
  'conversation',
  'audit_log',
] as const;
export type AuditResourceType = (typeof AUDIT_RESOURCE_TYPES)[number];

/** done: it happened; refused: not allowed (a wrong password, someone else's resource); failed: it went wrong. */
export const AUDIT_RESULTS = ['done', 'refused', 'failed'] as const;
export type AuditResult = (typeof AUDIT_RESULTS)[number];

/**
 * How the actor showed who they are: the session key, an API key (named in `api_key_name`), a
 * browser session (the cookie), a password or an identity provider (at sign-in), or the server itself.
 */
export const AUDIT_AUTH_METHODS = ['session_key', 'api_key', 'cookie', 'password', 'identity_provider', 'server'] as const;
export type AuditAuthMethod = (typeof AUDIT_AUTH_METHODS)[number];

const diffValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]);
export const auditFieldChangeSchema = z.object({ old: diffValue, new: diffValue, secret: z.boolean() });
export type AuditFieldChange = z.output<typeof auditFieldChangeSchema>;
export type AuditDiff = Record<string, AuditFieldChange>;

export const auditLogSchema = z.object({
  id: z.string(),
  /** Its place in the chain: 1, 2, 3… with no gaps (a pruned beginning excepted). */
  seq: integer(),
  time: z.string(),
  user_id: z.nullable(z.string()),
  /** The actor's email or name as it was then; null for the server and unknown sign-ins. */
  user_name: z.nullable(z.string()),
  auth_method: z.nullable(z.enum(AUDIT_AUTH_METHODS)),
  api_key_name: z.nullable(z.string()),
  ip: z.nullable(z.string()),
  action: z.enum(AUDIT_ACTIONS),
  resource_type: z.enum(AUDIT_RESOURCE_TYPES),
  resource_id: z.nullable(z.string()),
  /** The resource's name (an email, a title, a key's name), as Coder's `resource_target`. */
  resource_target: z.nullable(z.string()),
  result: z.enum(AUDIT_RESULTS),
  /** Why it was refused or failed, or what the server did it for. */
  reason: z.nullable(z.string()),
  diff: z.record(z.string(), auditFieldChangeSchema),
  /** SHA-256 (hex) of the entry before it, and of this one's canonical form with that. */
  prev_hash: z.string(),
  hash: z.string(),
});
export type AuditLog = z.output<typeof auditLogSchema>;

export const auditLogPageSchema = z.object({ audit_logs: z.array(auditLogSchema), count: integer() });
export type AuditLogPage = z.output<typeof auditLogPageSchema>;

export const AUDIT_PAGE_LIMIT = 500;

export const auditLogQuerySchema = z.object({
  q: z.optional(z.string().check(z.maxLength(1000))),
  offset: z.optional(z.coerce.number().check(z.int(), z.gte(0))),
  limit: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(AUDIT_PAGE_LIMIT))),
});

export const auditExportQuerySchema = z.object({
  q: z.optional(z.string().check(z.maxLength(1000))),
  format: z.optional(z.enum(['json', 'csv'])),
});

/** `GET /api/audit-logs/verify`: whether every entry is as written and linked to the one before it. */
export const auditVerificationSchema = z.object({
  ok: z.boolean(),
  /** Entries checked. */
  checked: integer(),
  /** The first entry that does not hold (null when all do), and how. */
  broken_at: z.nullable(
    z.object({
      seq: integer(),
      id: z.nullable(z.string()),
      problem: z.enum(['changed', 'unlinked', 'missing']),
    }),
  ),
  /** The last pruned entry the chain now starts after (null when nothing was pruned). */
  anchor_seq: z.nullable(integer()),
});
export type AuditVerification = z.output<typeof auditVerificationSchema>;

/** What `q` filters by; all present ones must hold. */
export interface AuditFilter {
  /** A user id, email or name (the actor). */
  username?: string;
  action?: AuditAction;
  resource_type?: AuditResourceType;
  resource_id?: string;
  result?: AuditResult;
  /** Inclusive, `YYYY-MM-DD` or an ISO time. */
  date_from?: string;
  date_to?: string;
}

export const AUDIT_FILTER_KEYS = ['username', 'action', 'resource_type', 'resource_id', 'result', 'date_from', 'date_to'] as const;

const DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/;

/** Parses Coder-style `key:value` words (a value with spaces in double quotes); a problem names the word. */
export function parseAuditQuery(q: string): { filter: AuditFilter } | { problem: string } {
  const filter: AuditFilter = {};
  for (const match of q.matchAll(/(\S+?):("[^"]*"|\S+)|(\S+)/g)) {
    if (match[3] !== undefined) return { problem: `"${match[3]}" is not a filter: use key:value, such as action:login` };
    const key = match[1]!;
    const value = match[2]!.replace(/^"(.*)"$/, '$1');
    switch (key) {
      case 'action':
        if (!(AUDIT_ACTIONS as readonly string[]).includes(value)) return { problem: `Unknown action "${value}"` };
        filter.action = value as AuditAction;
        break;
      case 'resource_type':
        if (!(AUDIT_RESOURCE_TYPES as readonly string[]).includes(value)) return { problem: `Unknown resource type "${value}"` };
        filter.resource_type = value as AuditResourceType;
        break;
      case 'result':
        if (!(AUDIT_RESULTS as readonly string[]).includes(value)) return { problem: `Unknown result "${value}"` };
        filter.result = value as AuditResult;
        break;
      case 'date_from':
      case 'date_to':
        if (!DATE.test(value) || Number.isNaN(Date.parse(value))) return { problem: `${key} takes a date such as 2026-12-01` };
        filter[key] = value;
        break;
      case 'username':
      case 'resource_id':
        filter[key] = value;
        break;
      default:
        return { problem: `Unknown filter "${key}": use ${AUDIT_FILTER_KEYS.join(', ')}` };
    }
  }
  return { filter };
}

/** The `q` a filter is (the console builds its URL's query with it). */
export function auditQueryOf(filter: AuditFilter): string {
  return AUDIT_FILTER_KEYS.flatMap((key) => {
    const value = filter[key];
    if (!value) return [];
    return [`${key}:${/\s/.test(value) ? `"${value}"` : value}`];
  }).join(' ');
}
