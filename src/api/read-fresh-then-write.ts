import type { AddGitProvidersInput, Provider } from '../contract/secrets';
import { storeGitProviders } from './secrets';
import { fetchSettings, storeSettings } from './settings';

/*
 * OpenHands replaces on POST: `POST /api/add-git-providers` stores the body as the whole set of
 * providers. A write built from the copy a page rendered would undo what changed elsewhere since,
 * so each write here is built on what the server has right before it is sent (the settings' own
 * such write is `storeSettingsOnFresh` in ./settings.ts).
 */

/** Stored providers as GET /api/settings reports them: `{provider: host | null}`. */
type ConnectedProviders = Record<string, string | null>;

export type ProviderChange = { provider: Provider; token: string | null; host: string | null } | { provider: Provider; remove: true };

/**
 * The `provider_tokens` for `POST /api/add-git-providers`: every other connected provider goes
 * along with an empty token (keep it) and its host.
 */
export function providerTokensFor(connected: ConnectedProviders, change: ProviderChange): AddGitProvidersInput['provider_tokens'] {
  const tokens: NonNullable<AddGitProvidersInput['provider_tokens']> = {};
  for (const [provider, host] of Object.entries(connected)) {
    if (provider !== change.provider) tokens[provider] = { token: '', host };
  }
  if (!('remove' in change)) tokens[change.provider] = { token: change.token ?? '', host: change.host };
  return tokens;
}

/** The providers the server has right now; `null` before any settings are stored (OpenHands then does not say). */
export async function freshConnectedProviders(): Promise<ConnectedProviders | null> {
  const settings = await fetchSettings();
  return settings && (settings.provider_tokens_set ?? {});
}

/** Connects, updates or disconnects one provider, keeping the others the server has right now. */
export async function storeProviderOnFresh(change: ProviderChange): Promise<void> {
  let connected = await freshConnectedProviders();
  if (connected === null) {
    // OpenHands responds 404 until settings exist, and then says nothing about the stored
    // providers either: saving one would drop the others. Settings with defaults fix that.
    await storeSettings({});
    connected = (await freshConnectedProviders()) ?? {};
  }
  await storeGitProviders({ provider_tokens: providerTokensFor(connected, change) });
}
