import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { testMcpServer } from '../../api/mcp';
import {
  mcpConfigForUpdate,
  settingsQuery as sharedSettingsQuery,
  settingsQueryKey,
  settingsUpdateFrom,
  storeSettings,
} from '../../api/settings';
import type { McpConfigResponse, McpTestRequestInput } from '../../contract/mcp';
import type { SettingsResponse, SettingsUpdateInput } from '../../contract/settings';
import { EMPTY_MCP_CONFIG } from './mcp/mcp-model';

const settingsQuery = () => queryOptions(sharedSettingsQuery);

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

/**
 * Saves an edit of the MCP servers: `apply` gets `mcp_config` as the server has it right now and
 * answers the new one; every other setting is sent back as it was read.
 */
export function useSaveMcpConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (apply: (current: McpConfigResponse) => McpConfigResponse) => {
      const current = await queryClient.fetchQuery({ ...settingsQuery(), staleTime: 0 });
      const next = apply(current?.mcp_config ?? EMPTY_MCP_CONFIG);
      await storeSettings(settingsUpdateFrom(current, { mcp_config: mcpConfigForUpdate(next) }));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsQueryKey }),
  });
}

/** A test of an entry as typed in a form, run on request. */
export function useTestMcpServer() {
  return useMutation({ mutationFn: (entry: McpTestRequestInput) => testMcpServer(entry) });
}

/** A test of a saved server, run when shown; each run starts real processes, so nothing is cached. */
export function useSavedMcpServerTest(entry: McpTestRequestInput) {
  return useQuery({
    queryKey: ['mcp-test', entry],
    queryFn: () => testMcpServer(entry),
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
  });
}
