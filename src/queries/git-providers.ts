import { mutationOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import { type ProviderChange, storeProviderOnFresh } from '../api/read-fresh-then-write';
import { unsetProviderTokens } from '../api/secrets';
import { settingsKeys, settingsQuery } from './settings';

/** Connected providers come with the settings (`provider_tokens_set`), so they share its cache entry. */
export const connectedProvidersQuery = () =>
  queryOptions({ ...settingsQuery(), select: (settings) => settings?.provider_tokens_set ?? {} });

/** Connects, updates or disconnects one provider, on top of the providers the server has right now. */
export const saveProviderMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (change: ProviderChange) => storeProviderOnFresh(change),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.all }),
  });

export const disconnectAllProvidersMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: () => unsetProviderTokens(),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.all }),
  });
