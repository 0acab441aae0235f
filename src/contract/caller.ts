import * as z from 'zod/mini';
import { ROLES } from './roles';

/*
 * Who is signed in (`/api/organizations/{org_id}/me`) and in which organisation: all the console's
 * shell needs to know of the team (which pages a user has), apart from the rest of the team's
 * contract (src/contract/team.ts), which only its pages load.
 */

export const roleSchema = z.enum(ROLES);

export const organizationSchema = z.object({ id: z.string(), name: z.string() });
/** `GET /api/organizations`: ours has one organisation, the server's. */
export const organizationPageSchema = z.object({
  items: z.array(organizationSchema),
  next_page_id: z.nullable(z.string()),
  current_org_id: z.nullable(z.string()),
});

/** `GET /api/organizations/{org_id}/me`: who the request is, and their role. */
export const callerSchema = z.object({
  user_id: z.string(),
  email: z.nullable(z.string()),
  name: z.nullable(z.string()),
  role: roleSchema,
  /** How the request showed who it is. */
  auth_type: z.enum(['session_key', 'api_key', 'cookie']),
  /** Ours: whether they sign in with a password (one they can change). */
  has_password: z.optional(z.boolean()),
  org_id: z.string(),
});
export type Caller = z.output<typeof callerSchema>;
