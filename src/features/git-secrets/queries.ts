import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createCustomSecret,
  customSecretsQueryKey,
  deleteCustomSecret,
  fetchCustomSecrets,
  storeGitProviders,
  unsetProviderTokens,
  updateCustomSecret,
} from '../../api/secrets';
import { fetchSettings, settingsQueryKey } from '../../api/settings';
import type { CreateSecretInput, CustomSecrets, UpdateSecretInput } from '../../contract/secrets';
import { type ProviderChange, providerTokensFor } from './providers';

export const gitSecretsKeys = {
  /** Connected providers come with the settings (`provider_tokens_set`). */
  settings: settingsQueryKey,
  secrets: customSecretsQueryKey,
};

const settingsQuery = () => queryOptions({ queryKey: gitSecretsKeys.settings, queryFn: ({ signal }) => fetchSettings(signal) });

export function useConnectedProviders() {
  return useQuery({ ...settingsQuery(), select: (settings) => settings?.provider_tokens_set ?? {} });
}

/** Connects, updates or disconnects one provider, on top of the providers the server has right now. */
export function useSaveProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: ProviderChange) => {
      const fresh = await queryClient.fetchQuery({ ...settingsQuery(), staleTime: 0 });
      await storeGitProviders({ provider_tokens: providerTokensFor(fresh?.provider_tokens_set ?? {}, change) });
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

/** Deletes at once on screen; if the server refuses, the secret comes back. */
export function useDeleteSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => deleteCustomSecret(name),
    onMutate: async (name) => {
      await queryClient.cancelQueries({ queryKey: gitSecretsKeys.secrets });
      const previous = queryClient.getQueryData<CustomSecrets>(gitSecretsKeys.secrets);
      queryClient.setQueryData<CustomSecrets>(gitSecretsKeys.secrets, (current) =>
        current ? { custom_secrets: current.custom_secrets.filter((secret) => secret.name !== name) } : current,
      );
      return { previous };
    },
    onError: (_error, _name, context) => {
      if (context?.previous) queryClient.setQueryData(gitSecretsKeys.secrets, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: gitSecretsKeys.secrets }),
  });
}
