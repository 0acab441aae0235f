import { mutationOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import { createCustomSecret, fetchCustomSecrets } from '../api/secrets';
import { deleteSecretUnlessGone, replaceOrUpdateSecret } from '../api/secret-update';
import type { CreateSecretInput, CustomSecrets, UpdateSecretInput } from '../contract/secrets';
import { serverFeaturesQuery } from './server-capabilities';

/** Custom secrets are one list without parameters: the key factory has no details. */
export const secretKeys = {
  all: ['secrets'] as const,
  lists: () => [...secretKeys.all, 'list'] as const,
  list: () => [...secretKeys.lists()] as const,
};

export const secretsQuery = () => queryOptions({ queryKey: secretKeys.list(), queryFn: ({ signal }) => fetchCustomSecrets(signal) });

export const createSecretMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (input: CreateSecretInput) => createCustomSecret(input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: secretKeys.lists() }),
  });

/** Renames, re-describes and re-values a secret: in place, or by replacing it where the server cannot. */
export const updateSecretMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: async ({ name, changes }: { name: string; changes: UpdateSecretInput }) =>
      replaceOrUpdateSecret(name, changes, (await queryClient.fetchQuery(serverFeaturesQuery())).secretValueUpdate),
    onSettled: () => queryClient.invalidateQueries({ queryKey: secretKeys.lists() }),
  });

/**
 * Deletes at once on screen; if the server refuses, that secret (only that one: other deletes may
 * be under way) comes back where it was. One that is gone already counts as deleted.
 */
export const deleteSecretMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (name: string) => deleteSecretUnlessGone(name),
    onMutate: async (name) => {
      await queryClient.cancelQueries({ queryKey: secretKeys.lists() });
      const list = queryClient.getQueryData<CustomSecrets>(secretKeys.list())?.custom_secrets ?? [];
      const index = list.findIndex((secret) => secret.name === name);
      queryClient.setQueryData<CustomSecrets>(secretKeys.list(), { custom_secrets: list.filter((secret) => secret.name !== name) });
      return { removed: list[index], index };
    },
    onError: (_error, _name, context) => {
      const removed = context?.removed;
      if (!removed) return;
      queryClient.setQueryData<CustomSecrets>(secretKeys.list(), (current) => {
        const list = [...(current?.custom_secrets ?? [])];
        list.splice(Math.min(context.index, list.length), 0, removed);
        return { custom_secrets: list };
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: secretKeys.lists() }),
  });
