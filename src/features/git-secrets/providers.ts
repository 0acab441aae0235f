import type { AddGitProvidersInput, Provider } from '../../contract/secrets';

/** Stored providers as GET /api/settings reports them: `{provider: host | null}`. */
export type ConnectedProviders = Record<string, string | null>;

export type ProviderChange = { provider: Provider; token: string | null; host: string | null } | { provider: Provider; remove: true };

/**
 * The `provider_tokens` for `POST /api/add-git-providers`, which replaces the whole stored set:
 * every other connected provider goes along with an empty token (keep it) and its host.
 */
export function providerTokensFor(connected: ConnectedProviders, change: ProviderChange): AddGitProvidersInput['provider_tokens'] {
  const tokens: NonNullable<AddGitProvidersInput['provider_tokens']> = {};
  for (const [provider, host] of Object.entries(connected)) {
    if (provider !== change.provider) tokens[provider] = { token: '', host };
  }
  if (!('remove' in change)) tokens[change.provider] = { token: change.token ?? '', host: change.host };
  return tokens;
}
