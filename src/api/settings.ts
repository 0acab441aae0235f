import * as z from 'zod/mini';
import { messageSchema } from '../contract/errors';
import {
  SECRET_FIELDS,
  SETTINGS_READ_PATH,
  settingsResponseSchema,
  type SettingsResponse,
  type SettingsUpdateInput,
} from '../contract/settings';
import type { McpConfigInput, McpConfigResponse } from '../contract/mcp';
import { apiRequest } from './client';
import { isApiError } from './errors';

/** The stored settings, or `null` when the server has none yet (our server's `null`, OpenHands' 404). */
export async function fetchSettings(signal?: AbortSignal): Promise<SettingsResponse | null> {
  try {
    return await apiRequest(SETTINGS_READ_PATH, { schema: z.nullable(settingsResponseSchema), signal });
  } catch (error) {
    if (isApiError(error) && error.kind === 'http' && error.status === 404) return null;
    throw error;
  }
}

export function storeSettings(body: SettingsUpdateInput): Promise<{ message: string }> {
  return apiRequest('/api/settings', { method: 'POST', body, schema: messageSchema });
}

/** What a GET returns besides the settings: whether each secret is set, the providers, the store. */
const READ_ONLY_FIELDS = [...SECRET_FIELDS.map((field) => `${field}_set` as const), 'provider_tokens_set', 'secrets_store'];

/**
 * MCP servers as a POST takes them: without our read-only `api_key_set`. A key a real OpenHands
 * server sent in plain text stays, so posting it back keeps it.
 */
export function mcpConfigForUpdate(mcp: McpConfigResponse): McpConfigInput {
  const withoutFlag = <S extends { api_key_set?: boolean }>({ api_key_set: _flag, ...server }: S) => server;
  return { ...mcp, sse_servers: mcp.sse_servers.map(withoutFlag), shttp_servers: mcp.shttp_servers.map(withoutFlag) };
}

/**
 * The body to POST for `changes`: the current settings as the server just returned them, with
 * the changes on top. Every field is sent because OpenHands replaces absent fields with
 * defaults; secrets not being changed go as `null` (keep), read-only fields are left out.
 */
export function settingsUpdateFrom(current: SettingsResponse | null, changes: SettingsUpdateInput): SettingsUpdateInput {
  const base: Record<string, unknown> = { ...current };
  for (const field of READ_ONLY_FIELDS) delete base[field];
  for (const field of SECRET_FIELDS) base[field] = null;
  if (current?.mcp_config) base.mcp_config = mcpConfigForUpdate(current.mcp_config);
  return { ...(base as SettingsUpdateInput), ...changes };
}

/**
 * Stores `changes(current)` on top of the settings as the server has them right now: OpenHands
 * stores a POST's body as the whole settings (absent fields fall back to defaults), so a write
 * built from the copy a page rendered would undo what changed elsewhere since.
 */
export async function storeSettingsOnFresh(changes: (current: SettingsResponse | null) => SettingsUpdateInput): Promise<void> {
  const current = await fetchSettings();
  await storeSettings(settingsUpdateFrom(current, changes(current)));
}
