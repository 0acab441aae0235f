import { mutationOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import { type ProviderChange, storeProviderOnFresh } from '../api/read-fresh-then-write';
import { fetchGitProviderStatuses, unsetProviderTokens, verifyGitProvider } from '../api/secrets';
import type { Provider } from '../contract/secrets';
import { settingsKeys, settingsQuery } from './settings';

export const gitProviderKeys = {
  all: ['git-providers'] as const,
  statuses: () => [...gitProviderKeys.all, 'statuses'] as const,
};

/** Connected providers come with the settings (`provider_tokens_set`), so they share its cache entry. */
export const connectedProvidersQuery = () =>
  queryOptions({ ...settingsQuery(), select: (settings) => settings?.provider_tokens_set ?? {} });

/** When each connected provider's token was last verified; `null` when the server does not say. */
export const providerStatusesQuery = () =>
  queryOptions({ queryKey: gitProviderKeys.statuses(), queryFn: ({ signal }) => fetchGitProviderStatuses(signal) });

/** A change to the tokens changes what is connected and what is verified. */
const invalidateProviders = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: settingsKeys.all }),
    queryClient.invalidateQueries({ queryKey: gitProviderKeys.all }),
  ]);

/** Connects, updates or disconnects one provider, on top of the providers the server has right now. */
export const saveProviderMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (change: ProviderChange) => storeProviderOnFresh(change),
    onSettled: () => invalidateProviders(queryClient),
  });

export const disconnectAllProvidersMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: () => unsetProviderTokens(),
    onSettled: () => invalidateProviders(queryClient),
  });

/** Checks a provider's stored token with the provider now. */
export const verifyProviderMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (provider: Provider) => verifyGitProvider(provider),
    onSettled: () => queryClient.invalidateQueries({ queryKey: gitProviderKeys.statuses() }),
  });
