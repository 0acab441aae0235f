import * as z from 'zod/mini';
import { type Settings, type SettingsUpdate, settingsResponseSchema } from './settings';

/**
 * The fields an admin sets for the whole team (`/api/organizations/{org_id}/settings`, ours in
 * this shape): each user's own value, when they have one, overrides the default. MCP servers are
 * shared: the team's are added to each user's own.
 */
export const ORGANIZATION_DEFAULT_FIELDS = [
  'llm_model',
  'llm_base_url',
  'llm_api_key',
  'agent',
  'confirmation_mode',
  'security_analyzer',
  'max_budget_per_task',
  'mcp_config',
  'sandbox_base_container_image',
  'sandbox_runtime_container_image',
] as const satisfies readonly (keyof Settings)[];
export type OrganizationDefaultField = (typeof ORGANIZATION_DEFAULT_FIELDS)[number];

/** Each default's shape in `shape` (a schema's), as one object's shape. */
export function pickDefaults<S extends Record<OrganizationDefaultField, z.ZodMiniType>>(shape: S): Pick<S, OrganizationDefaultField> {
  return Object.fromEntries(ORGANIZATION_DEFAULT_FIELDS.map((field) => [field, shape[field]])) as Pick<S, OrganizationDefaultField>;
}

/**
 * `PATCH /api/organizations/{org_id}/settings`: the defaults to change (a secret as in a settings
 * POST). The server's schema for it, which also takes OpenHands' MCP shorthands, is its own.
 */
export type OrganizationDefaultsUpdate = Pick<SettingsUpdate, OrganizationDefaultField>;

/** `GET /api/organizations/{org_id}/settings`: the team's defaults, the key only as whether it is set. */
export const organizationDefaultsSchema = z.object({ ...pickDefaults(settingsResponseSchema.shape), llm_api_key_set: z.boolean() });
export type OrganizationDefaults = z.output<typeof organizationDefaultsSchema>;
