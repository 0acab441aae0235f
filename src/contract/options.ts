import * as z from 'zod/mini';

/*
 * `GET /api/options/models`, `/api/options/agents` and `/api/options/security-analyzers`, as
 * OpenHands returns them: a JSON list of names the Settings choices come from.
 */

export const OPTION_KINDS = ['models', 'agents', 'security-analyzers'] as const;
export type OptionKind = (typeof OPTION_KINDS)[number];

export const optionNamesSchema = z.array(z.string());

/*
 * `GET /api/options/config`: what OpenHands' own web client reads before anything else
 * (`GetConfigResponse` of its frontend). This server is always the open-source kind, with no
 * OAuth app, no analytics key and every feature flag off.
 */
export const serverConfigSchema = z.object({
  APP_MODE: z.literal('oss'),
  GITHUB_CLIENT_ID: z.string(),
  POSTHOG_CLIENT_KEY: z.string(),
  FEATURE_FLAGS: z.object({
    ENABLE_BILLING: z.boolean(),
    HIDE_LLM_SETTINGS: z.boolean(),
    ENABLE_JIRA: z.boolean(),
    ENABLE_JIRA_DC: z.boolean(),
    ENABLE_LINEAR: z.boolean(),
  }),
});
export type ServerConfig = z.output<typeof serverConfigSchema>;
