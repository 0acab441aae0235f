import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import * as z from 'zod/mini';
import { mcpConfigSchema } from './mcp';
import {
  customIssue,
  description,
  describeValues,
  ENV_NAME_PATTERN,
  MAX_CUSTOM_SECRETS,
  MAX_NAME_LENGTH,
  processText,
  processTextProblem,
  rule,
} from './rules';

/*
 * Git provider tokens and custom secrets (`/api/add-git-providers`, `/api/secrets`, and
 * `secrets_store` in the settings). Token and secret values are write-only: no response carries them.
 */

export const PROVIDERS = ['github', 'gitlab', 'bitbucket', 'azure_devops', 'enterprise_sso'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const providerSchema = z.enum(PROVIDERS);

export const PROVIDER_NAMES: Record<Provider, string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  bitbucket: 'Bitbucket',
  azure_devops: 'Azure DevOps',
  enterprise_sso: 'Enterprise SSO',
};

/** Where each provider lives when no host is given. */
export const PUBLIC_HOSTS: Record<Provider, string | null> = {
  github: 'github.com',
  gitlab: 'gitlab.com',
  bitbucket: 'bitbucket.org',
  azure_devops: 'dev.azure.com',
  enterprise_sso: null,
};

const DOMAIN = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(?::\d{1,5})?$/;

/** A bare domain (`gitlab.example.com`, optionally `:port`) or an http(s) base URL; empty means the public service. */
export function hostProblem(host: string): MessageDescriptor | undefined {
  if (host === '' || DOMAIN.test(host)) return undefined;
  try {
    const url = new URL(host);
    if (url.username || url.password) return msg`Host must not contain a user name or password; the token is the credential`;
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname && !url.search && !url.hash) return undefined;
  } catch {
    // not a URL either
  }
  return msg`Host must be a domain such as gitlab.example.com (optionally with :port) or an http(s) URL`;
}

const token = z
  .string()
  .check(rule((value: string) => (/\s/.test(value) ? msg`Token must not contain spaces or line breaks` : processTextProblem(value))));
const host = z.string().check(z.trim(), rule(hostProblem));

/** A provider without a public host (Enterprise SSO): a token for it means nothing without one. */
export const hostRequiredProblem = (provider: string, host: string | null | undefined): MessageDescriptor | undefined => {
  if (!isProvider(provider) || PUBLIC_HOSTS[provider] !== null || host?.trim()) return undefined;
  const name = PROVIDER_NAMES[provider];
  return msg`${name} needs the host of your server`;
};

export const providerTokenSchema = z.object({
  token: z.optional(z.nullable(token)),
  host: z.optional(z.nullable(host)),
  user_id: z.optional(z.nullable(z.string())),
});

export const isProvider = (key: string): key is Provider => (PROVIDERS as readonly string[]).includes(key);
const PROVIDER_LIST = describeValues(PROVIDERS);

// A plain string key with its own check (not an enum key), so an unknown provider is reported at
// `[…, "<key>", "[key]"]` naming the providers, as Pydantic does.
const providerKey = z.string().check(rule((key: string) => (isProvider(key) ? undefined : msg`Input should be ${PROVIDER_LIST}`)));

/** `{<provider>: {token, host}}` for any of the providers. */
export const providerTokensSchema = z.record(providerKey, providerTokenSchema).check(
  z.superRefine((tokens, ctx) => {
    for (const [provider, entry] of Object.entries(tokens)) {
      const problem = hostRequiredProblem(provider, entry.host);
      if (problem) ctx.addIssue(customIssue(problem, { path: [provider, 'host'], input: entry.host ?? null }));
    }
  }),
);
export type ProviderTokens = z.output<typeof providerTokensSchema>;

/** Body of `POST /api/add-git-providers`. `mcp_config` is validated and otherwise ignored, as OpenHands does. */
export const addGitProvidersSchema = z.object({
  provider_tokens: z._default(providerTokensSchema, {}),
  mcp_config: z.optional(z.nullable(mcpConfigSchema)),
});
export type AddGitProvidersInput = z.input<typeof addGitProvidersSchema>;

const secretName = z.string().check(
  z.maxLength(MAX_NAME_LENGTH),
  rule((name: string) =>
    ENV_NAME_PATTERN.test(name)
      ? undefined
      : msg`Secret names become environment variables: use letters, digits and underscores, not starting with a digit`,
  ),
);

export const createSecretSchema = z.object({
  name: secretName,
  // It becomes an environment variable of the sandbox's commands.
  value: processText(),
  description: z.optional(z.nullable(description())),
});
export type CreateSecretInput = z.input<typeof createSecretSchema>;

/** `PUT /api/secrets/{name}`: rename, describe and (unlike OpenHands) change the value. */
export const updateSecretSchema = z.object({
  name: z.optional(secretName),
  description: z.optional(z.nullable(description())),
  value: z.optional(processText()),
});
export type UpdateSecretInput = z.input<typeof updateSecretSchema>;

export const secretPathSchema = z.object({ name: z.string() });

export const customSecretsSchema = z.object({
  custom_secrets: z._default(z.array(z.object({ name: z.string(), description: z._default(z.nullable(z.string()), null) })), []),
});
export type CustomSecrets = z.output<typeof customSecretsSchema>;

/** `secrets_store` in `POST /api/settings`: merged into the stored tokens and secrets. */
export const secretsStoreSchema = z.object({
  provider_tokens: z.optional(providerTokensSchema),
  custom_secrets: z.optional(
    z
      .record(secretName, z.object({ secret: z.optional(z.nullable(processText())), description: z.optional(z.nullable(description())) }))
      .check(
        rule((secrets: Record<string, unknown>) =>
          Object.keys(secrets).length > MAX_CUSTOM_SECRETS ? msg`At most ${MAX_CUSTOM_SECRETS} custom secrets at once` : undefined,
        ),
      ),
  ),
});
export type SecretsStoreUpdate = z.output<typeof secretsStoreSchema>;

/** `GET /api/git-providers` (ours): each connected provider, its host, and when the provider last accepted its token. */
export const gitProviderStatusSchema = z.object({
  provider: providerSchema,
  host: z.nullable(z.string()),
  /** `null`: saved but not verified (never checked, or refused or changed since). */
  checked_at: z.nullable(z.string()),
});
export type GitProviderStatus = z.output<typeof gitProviderStatusSchema>;
export const gitProviderStatusesSchema = z.object({ providers: z.array(gitProviderStatusSchema) });

export const TOKEN_CHECK_OUTCOMES = ['accepted', 'refused', 'unreachable', 'uncheckable'] as const;
export type TokenCheckOutcome = (typeof TOKEN_CHECK_OUTCOMES)[number];

/** `POST /api/git-providers/{provider}/verify` (ours): the provider's verdict on the stored token (never the token). */
export const tokenCheckSchema = z.object({
  provider: providerSchema,
  /** `unreachable`: no response about the token; `uncheckable`: the provider has no API to ask (Enterprise SSO). */
  outcome: z.enum(TOKEN_CHECK_OUTCOMES),
  detail: z.string(),
  checked_at: z.nullable(z.string()),
});
export type TokenCheck = z.output<typeof tokenCheckSchema>;

export const providerPathSchema = z.object({ provider: providerSchema });
