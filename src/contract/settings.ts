import { msg } from '@lingui/core/macro';
import * as z from 'zod/mini';
import type { mcpConfigSchema } from './mcp';
import { mcpConfigResponseSchema, mcpConfigStoredSchema } from './mcp-response';
import { emailProblem, httpUrlProblem, integer, processText, rule } from './rules';

/*
 * Settings (`/api/settings`), in three views of one shape:
 *   - `settingsResponseSchema`: what `GET /api/settings` returns, read leniently;
 *   - `settingsUpdateSchema` (settings-update.ts): the body of `POST /api/settings`, every field
 *     optional, with rules; `settingsFieldsUpdateSchema` its fields but the MCP servers and secrets;
 *   - `Settings`: a complete settings object (what is stored, what a form starts from).
 * The write-only secrets are `SECRET_FIELDS`; a GET never carries their values.
 */

const text = z.nullable(z.string());
const flag = z.nullable(z.boolean());

/** Every field of the interface plus `condenser_max_size` and `v1_enabled`, as the wire types them. */
const settingsShape = {
  language: text,
  agent: text,
  max_iterations: z.nullable(integer()),
  security_analyzer: text,
  confirmation_mode: flag,
  llm_model: text,
  llm_api_key: text,
  llm_base_url: text,
  remote_runtime_resource_factor: z.nullable(integer()),
  enable_default_condenser: z.boolean(),
  enable_sound_notifications: z.boolean(),
  enable_proactive_conversation_starters: z.boolean(),
  enable_solvability_analysis: z.boolean(),
  user_consents_to_analytics: flag,
  sandbox_base_container_image: text,
  sandbox_runtime_container_image: text,
  search_api_key: text,
  sandbox_api_key: text,
  max_budget_per_task: z.nullable(z.number()),
  condenser_max_size: z.nullable(integer()),
  email: text,
  email_verified: flag,
  git_user_name: text,
  git_user_email: text,
  v1_enabled: flag,
};

export const SECRET_FIELDS = ['llm_api_key', 'search_api_key', 'sandbox_api_key'] as const;

/**
 * Each field as the server stores it, to be read one by one: the wire types without the rules of
 * a write, so a value stored under older or looser rules still reads.
 */
export const storedSettingsFields = { ...settingsShape, mcp_config: z.nullable(mcpConfigStoredSchema) };

/** `secrets_store` in a GET: OpenHands returns it empty (and without custom_secrets); we return both maps empty. */
const secretsStoreResponseSchema = z.object({
  provider_tokens: z.optional(z.record(z.string(), z.unknown())),
  custom_secrets: z.optional(z.record(z.string(), z.unknown())),
});

const positiveInt = z.nullable(integer().check(z.minimum(1)));

/** The rules our server enforces on writes (OpenHands' own, plus format checks it lacks). */
const settingsRules = {
  llm_base_url: z.nullable(z.string().check(rule(httpUrlProblem))),
  max_iterations: positiveInt,
  remote_runtime_resource_factor: positiveInt,
  max_budget_per_task: z.nullable(z.number().check(z.gt(0))),
  condenser_max_size: z.nullable(
    integer().check(rule((size: number) => (size < 20 ? msg`condenser_max_size must be at least 20` : undefined))),
  ),
  git_user_email: z.nullable(z.string().check(rule(emailProblem))),
  // The agent's commits are made with it (GIT_AUTHOR_NAME).
  git_user_name: z.nullable(processText()),
};

/**
 * The fields of `POST /api/settings` a person edits in the Settings form: all but `mcp_config`
 * and `secrets_store` (settings-update.ts), whose schemas the Settings page need not download.
 */
export const settingsFieldsUpdateSchema = z.partial(z.object({ ...settingsShape, ...settingsRules }));
export type SettingsFieldsUpdate = z.output<typeof settingsFieldsUpdateSchema>;
export type { SettingsUpdate, SettingsUpdateInput } from './settings-update';

/** `{provider: host | null}` for each provider with a stored token. */
const providerTokensSetSchema = z.nullable(z.record(z.string(), z.nullable(z.string())));

/** `GET /api/settings`. Fields missing from older servers read as `null`. */
export const settingsResponseSchema = z.object({
  ...settingsShape,
  condenser_max_size: z._default(settingsShape.condenser_max_size, null),
  v1_enabled: z._default(settingsShape.v1_enabled, null),
  mcp_config: z._default(z.nullable(mcpConfigResponseSchema), null),
  secrets_store: z.optional(secretsStoreResponseSchema),
  llm_api_key_set: z.boolean(),
  search_api_key_set: z._default(z.boolean(), false),
  /** Our extension: OpenHands does not say whether a sandbox API key is stored. */
  sandbox_api_key_set: z.optional(z.boolean()),
  provider_tokens_set: z._default(providerTokensSetSchema, null),
  /** Ours: the fields whose value is the team's default (the user has none of their own). */
  inherited: z.optional(z.array(z.string())),
  /**
   * Ours: the team's MCP servers, which the agent gets beside the user's own (`mcp_config`, the
   * list the user edits); only an admin changes them, in the team's defaults. No secret is in it:
   * an API key as `api_key_set`, a stdio server's variables by name with empty values.
   */
  team_mcp_config: z.optional(mcpConfigResponseSchema),
});
export type SettingsResponse = z.output<typeof settingsResponseSchema>;

/**
 * Our extension of `GET /api/settings`: with `?absent=null`, a server that has stored nothing yet
 * responds 200 `null` instead of 404, so a first visit logs no failed request. OpenHands ignores
 * the parameter and keeps its 404, which the console reads as `null` too.
 */
export const settingsReadQuerySchema = z.object({ absent: z.optional(z.literal('null')) });
export const SETTINGS_READ_PATH = '/api/settings?absent=null';

/** A complete settings object with a value for every field. */
export type Settings = { [K in keyof typeof settingsShape]: z.output<(typeof settingsShape)[K]> } & {
  mcp_config: z.output<typeof mcpConfigSchema> | null;
};

/** What a user has before saving anything (OpenHands' model defaults). */
export const DEFAULT_SETTINGS: Settings = {
  language: null,
  agent: null,
  max_iterations: null,
  security_analyzer: null,
  confirmation_mode: null,
  llm_model: null,
  llm_api_key: null,
  llm_base_url: null,
  remote_runtime_resource_factor: null,
  enable_default_condenser: true,
  enable_sound_notifications: false,
  enable_proactive_conversation_starters: true,
  enable_solvability_analysis: true,
  user_consents_to_analytics: null,
  sandbox_base_container_image: null,
  sandbox_runtime_container_image: null,
  mcp_config: null,
  search_api_key: null,
  sandbox_api_key: null,
  max_budget_per_task: null,
  condenser_max_size: null,
  email: null,
  email_verified: null,
  git_user_name: null,
  git_user_email: null,
  v1_enabled: null,
};
