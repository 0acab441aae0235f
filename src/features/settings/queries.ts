import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchSettings, settingsUpdateFrom, storeSettings } from '../../api/settings';
import type { SettingsResponse, SettingsUpdateInput } from '../../contract/settings';

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

export type SaveOutcome = { reloaded: true; settings: SettingsResponse | null } | { reloaded: false; error: unknown };

/**
 * Saves `changes` on top of settings read fresh from the server at that moment (never the copy
 * the page rendered from), then reads back what was stored so the form can show it. A failed
 * read-back does not make the save a failure: the outcome says so instead.
 */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: SettingsUpdateInput): Promise<SaveOutcome> => {
      const current = await queryClient.fetchQuery({ ...settingsQuery(), staleTime: 0 });
      await storeSettings(settingsUpdateFrom(current, changes));
      try {
        return { reloaded: true, settings: await queryClient.fetchQuery({ ...settingsQuery(), staleTime: 0 }) };
      } catch (error) {
        return { reloaded: false, error };
      }
    },
  });
}
