import { msg } from '@lingui/core/macro';
import * as z from 'zod/mini';
import { emailProblem, integer, rule } from './rules';

/** A date and time as ISO 8601 writes it, with its offset (`2026-12-01T00:00:00Z`). */
const dateTimeProblem = (value: string) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value))
    ? undefined
    : msg`Enter a date and time such as 2026-12-01T00:00:00Z`;
import { roleSchema } from './caller';

/*
 * A team on one server: its users and their roles, as OpenHands' organisation routes name them
 * (`/api/organizations/{org_id}/members…`), and each user's API keys (`/api/keys`). Ours besides
 * OpenHands': a member's name, `disabled` status, last sign-in and running sandboxes, and the
 * invitation link (OpenHands mails it; we show it to whoever invites).
 */

export const MEMBER_STATUSES = ['active', 'invited', 'disabled'] as const;
export const memberStatusSchema = z.enum(MEMBER_STATUSES);
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** An address as typed, trimmed (the server compares addresses lower-cased: one address is one user however it is typed). */
export const emailSchema = () => z.string().check(z.trim(), rule(emailProblem), z.maxLength(254));

export const memberSchema = z.object({
  user_id: z.string(),
  email: z.nullable(z.string()),
  role: roleSchema,
  status: memberStatusSchema,
  name: z.optional(z.nullable(z.string())),
  last_sign_in_at: z.optional(z.nullable(z.string())),
  running_sandboxes: z.optional(integer()),
  created_at: z.optional(z.string()),
  /** Ours: limits an admin set for this user (null: only the server's). */
  max_running_sandboxes: z.optional(z.nullable(integer())),
  max_sandboxes: z.optional(z.nullable(integer())),
  /** Ours: dollars of LLM calls a month (UTC) an admin allows this user (null: no limit). */
  monthly_cost_limit: z.optional(z.nullable(z.number())),
});
export type Member = z.output<typeof memberSchema>;

/** A user as lists name them (an admin's owner column and filter). */
export interface Owner {
  id: string;
  name: string;
}

export const memberPageSchema = z.object({ items: z.array(memberSchema), current_page: integer(), per_page: integer() });
export type MemberPage = z.output<typeof memberPageSchema>;

export const memberPageQuerySchema = z.object({
  page_id: z.optional(z.coerce.number().check(z.int(), z.gte(0))),
  limit: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(100))),
  email: z.optional(z.string()),
});

export const memberPatchSchema = z.strictObject({
  role: z.optional(roleSchema),
  /** Ours: `disabled` ends the member's sessions and keys and pauses their sandboxes; `active` lets them in again. */
  status: z.optional(z.enum(['active', 'disabled'])),
  /** Ours: how many sandboxes of theirs may run, and exist, at once (null: no limit of their own). */
  max_running_sandboxes: z.optional(z.nullable(integer().check(z.gte(0), z.lte(1000)))),
  max_sandboxes: z.optional(z.nullable(integer().check(z.gte(0), z.lte(1000)))),
  /** Ours: dollars of LLM calls a month (UTC) they may spend; a conversation start over it is refused (null: no limit). */
  monthly_cost_limit: z.optional(z.nullable(z.number().check(z.gte(0), z.lte(1_000_000)))),
});
export type MemberPatch = z.output<typeof memberPatchSchema>;

export const invitationRequestSchema = z.strictObject({
  emails: z.array(emailSchema()).check(z.minLength(1), z.maxLength(50)),
  role: z._default(roleSchema, 'member'),
});
export type InvitationRequest = z.input<typeof invitationRequestSchema>;

export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema,
  status: z.literal('pending'),
  created_at: z.string(),
  expires_at: z.string(),
  inviter_email: z.nullable(z.string()),
  /** Ours: the link that sets a password, shown once to whoever invites (it is not stored). */
  link: z.optional(z.string()),
});
export type Invitation = z.output<typeof invitationSchema>;

export const invitationResultSchema = z.object({
  successful: z.array(invitationSchema),
  failed: z.array(z.object({ email: z.string(), error: z.string() })),
});
export type InvitationResult = z.output<typeof invitationResultSchema>;

/** A new invitation link for someone who has not accepted yet (ours). */
export const renewedInvitationSchema = z.object({ link: z.string(), expires_at: z.string() });

export const MIN_PASSWORD_LENGTH = 10;
export const passwordSchema = z
  .string()
  .check(z.minLength(MIN_PASSWORD_LENGTH, { error: `Use at least ${MIN_PASSWORD_LENGTH} characters` }), z.maxLength(256));

/** `POST /change-password` (ours): the current password, and the new one. Every other session of the user ends. */
export const passwordChangeSchema = z.strictObject({
  current_password: z.string().check(z.maxLength(256)),
  new_password: passwordSchema,
});
export type PasswordChange = z.input<typeof passwordChangeSchema>;

/** `POST /invitation` (ours, no key): the invitation a link's token is, before it is accepted. */
export const invitationLookupBodySchema = z.strictObject({ token: z.string().check(z.minLength(1), z.maxLength(200)) });
export const invitationLinkSchema = z.object({
  /** The address the invited person joins as (and signs in with). */
  email: z.string(),
  expires_at: z.string(),
});
export type InvitationLink = z.output<typeof invitationLinkSchema>;

/** `POST /accept-invitation` (ours, no key): the invited person's password and name; signs the browser in. */
export const acceptInvitationBodySchema = z.strictObject({
  token: z.string().check(z.minLength(1), z.maxLength(200)),
  password: passwordSchema,
  name: z.optional(z.string().check(z.trim(), z.maxLength(100))),
});
export type AcceptInvitationBody = z.input<typeof acceptInvitationBodySchema>;

/** `/api/keys`, as OpenHands' (its ids are numbers); `prefix` is ours, the key's first characters. */
export const apiKeySchema = z.object({
  id: integer(),
  name: z.nullable(z.string()),
  prefix: z.optional(z.string()),
  created_at: z.string(),
  last_used_at: z.nullable(z.string()),
  expires_at: z.nullable(z.string()),
});
export type ApiKey = z.output<typeof apiKeySchema>;

/** The new key is in this response only. */
export const createdApiKeySchema = z.extend(apiKeySchema, { key: z.string() });
export type CreatedApiKey = z.output<typeof createdApiKeySchema>;

/** `GET /api/keys/current`: the key the request came with, as OpenHands says it. */
export const currentApiKeySchema = z.object({
  id: integer(),
  name: z.nullable(z.string()),
  org_id: z.string(),
  user_id: z.string(),
  auth_type: z.string(),
});

export const apiKeyCreateSchema = z.strictObject({
  name: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(100)))),
  expires_at: z.optional(z.nullable(z.string().check(rule(dateTimeProblem)))),
});
export type ApiKeyCreate = z.input<typeof apiKeyCreateSchema>;

export const apiKeyIdParamsSchema = z.object({ key_id: z.coerce.number().check(z.int(), z.gte(1)) });
export const orgIdParamsSchema = z.object({ org_id: z.string() });
export const memberParamsSchema = z.object({ org_id: z.string(), user_id: z.string() });
