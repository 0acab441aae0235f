import { mutationOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import { fetchSettings, mcpConfigForUpdate, storeSettings, storeSettingsOnFresh } from '../api/settings';
import type { McpConfigResponse } from '../contract/mcp';
import type { SettingsResponse, SettingsUpdateInput } from '../contract/settings';
import { sandboxSpecKeys } from './sandbox-spec-keys';
import { serverFeaturesQuery } from './server-capabilities';

/** The settings are one object per user: the key factory has no lists. */
export const settingsKeys = {
  all: ['settings'] as const,
  current: () => [...settingsKeys.all, 'current'] as const,
};

/** The stored settings, or `null` before anything was stored (our server's `null`, OpenHands' 404). */
export const settingsQuery = () => queryOptions({ queryKey: settingsKeys.current(), queryFn: ({ signal }) => fetchSettings(signal) });

export type SaveOutcome = { reloaded: true; settings: SettingsResponse | null } | { reloaded: false; error: unknown };

/**
 * Stores changed fields. Ours keeps the fields a POST leaves out: the changes alone are sent.
 * OpenHands replaces the settings with the body: the changes go on top of settings read right
 * before. Until the server is known, the write that suits both.
 */
async function storeChanges(queryClient: QueryClient, changes: SettingsUpdateInput): Promise<void> {
  const features = await queryClient.fetchQuery({ ...serverFeaturesQuery(), retry: false }).catch(() => undefined);
  if (features?.partialSettingsUpdate) await storeSettings(changes);
  else await storeSettingsOnFresh(() => changes);
}

/**
 * Saves the changed fields, then reads back what was stored so the form can show it. A failed
 * read-back does not make the save a failure: the outcome says so instead. The specs are read
 * again: on Docker the Settings image is the default spec's.
 */
export const saveSettingsMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: async (changes: SettingsUpdateInput): Promise<SaveOutcome> => {
      await storeChanges(queryClient, changes);
      try {
        return { reloaded: true, settings: await queryClient.fetchQuery({ ...settingsQuery(), staleTime: 0 }) };
      } catch (error) {
        return { reloaded: false, error };
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: sandboxSpecKeys.all }),
  });

/**
 * Saves an edit of the MCP servers: `apply` gets `mcp_config` as the server has it right now
 * (`null` when none is stored) and returns the new one; every other setting is sent back as read.
 */
export const saveMcpConfigMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (apply: (current: McpConfigResponse | null) => McpConfigResponse) =>
      storeSettingsOnFresh((current) => ({ mcp_config: mcpConfigForUpdate(apply(current?.mcp_config ?? null)) })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.all }),
  });
