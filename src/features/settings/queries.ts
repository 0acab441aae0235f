import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchSettings, settingsUpdateFrom, storeSettings } from '../../api/settings';
import type { SettingsUpdateInput } from '../../contract/settings';

export const settingsKeys = {
  all: ['settings'] as const,
  current: () => [...settingsKeys.all, 'current'] as const,
};

export const settingsQuery = () =>
  queryOptions({
    queryKey: settingsKeys.current(),
    queryFn: ({ signal }) => fetchSettings(signal),
  });

export function useSettings() {
  return useQuery(settingsQuery());
}

/**
 * Saves `changes` on top of settings read fresh from the server at that moment (never the copy
 * the page rendered from), then answers the settings as stored, so the form resets to them.
 */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: SettingsUpdateInput) => {
      const current = await queryClient.fetchQuery({ ...settingsQuery(), staleTime: 0 });
      await storeSettings(settingsUpdateFrom(current, changes));
      return queryClient.fetchQuery({ ...settingsQuery(), staleTime: 0 });
    },
  });
}
