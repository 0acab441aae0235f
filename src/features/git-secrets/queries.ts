import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '../../api/errors';
import {
  createCustomSecret,
  customSecretsQueryKey,
  deleteCustomSecret,
  fetchCustomSecrets,
  storeGitProviders,
  unsetProviderTokens,
  updateCustomSecret,
} from '../../api/secrets';
import { settingsQuery, settingsQueryKey, storeSettings } from '../../api/settings';
import type { CreateSecretInput, CustomSecrets, UpdateSecretInput } from '../../contract/secrets';
import { type ProviderChange, providerTokensFor } from './providers';

/** Connected providers come with the settings (`provider_tokens_set`); custom secrets have their own list. */
export const gitSecretsKeys = { settings: settingsQueryKey, secrets: customSecretsQueryKey };

export function useConnectedProviders() {
  return useQuery({ ...queryOptions(settingsQuery), select: (settings) => settings?.provider_tokens_set ?? {} });
}

/** The providers the server has right now. */
async function freshConnectedProviders(queryClient: QueryClient) {
  let settings = await queryClient.fetchQuery({ ...queryOptions(settingsQuery), staleTime: 0 });
  if (settings === null) {
    // OpenHands answers 404 until settings exist, and then says nothing about the stored
    // providers either: saving one would drop the others. Settings with defaults fix that.
    await storeSettings({});
    settings = await queryClient.fetchQuery({ ...queryOptions(settingsQuery), staleTime: 0 });
  }
  return settings?.provider_tokens_set ?? {};
}

/** Connects, updates or disconnects one provider, on top of the providers the server has right now. */
export function useSaveProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: ProviderChange) => {
      await storeGitProviders({ provider_tokens: providerTokensFor(await freshConnectedProviders(queryClient), change) });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: gitSecretsKeys.settings }),
  });
}

export function useDisconnectAllProviders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unsetProviderTokens,
    onSettled: () => queryClient.invalidateQueries({ queryKey: gitSecretsKeys.settings }),
  });
}

export function useCustomSecrets() {
  return useQuery({ queryKey: gitSecretsKeys.secrets, queryFn: ({ signal }) => fetchCustomSecrets(signal) });
}

export function useCreateSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateSecretInput) => createCustomSecret(input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: gitSecretsKeys.secrets }),
  });
}

export function useUpdateSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, changes }: { name: string; changes: UpdateSecretInput }) => updateCustomSecret(name, changes),
    onSettled: () => queryClient.invalidateQueries({ queryKey: gitSecretsKeys.secrets }),
  });
}

/**
 * Deletes at once on screen; if the server refuses, that secret (only that one: other deletes may
 * be under way) comes back where it was. One that is gone already counts as deleted.
 */
export function useDeleteSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      try {
        await deleteCustomSecret(name);
      } catch (error) {
        if (!(isApiError(error) && error.status === 404)) throw error;
      }
    },
    onMutate: async (name) => {
      await queryClient.cancelQueries({ queryKey: gitSecretsKeys.secrets });
      const list = queryClient.getQueryData<CustomSecrets>(gitSecretsKeys.secrets)?.custom_secrets ?? [];
      const index = list.findIndex((secret) => secret.name === name);
      queryClient.setQueryData<CustomSecrets>(gitSecretsKeys.secrets, { custom_secrets: list.filter((secret) => secret.name !== name) });
      return { removed: list[index], index };
    },
    onError: (_error, _name, context) => {
      const removed = context?.removed;
      if (!removed) return;
      queryClient.setQueryData<CustomSecrets>(gitSecretsKeys.secrets, (current) => {
        const list = [...(current?.custom_secrets ?? [])];
        list.splice(Math.min(context.index, list.length), 0, removed);
        return { custom_secrets: list };
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: gitSecretsKeys.secrets }),
  });
}
