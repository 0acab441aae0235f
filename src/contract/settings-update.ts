import * as z from 'zod/mini';
import { mcpConfigSchema } from './mcp';
import { secretsStoreSchema } from './secrets';
import { settingsFieldsUpdateSchema } from './settings';

/**
 * Body of `POST /api/settings`. Unknown keys (including the read-only `*_set` fields a client
 * echoes back) are dropped. A secret that is `null` or absent keeps the stored one; `""` clears it.
 * `email` and `email_verified` are taken and left as they are: they are the account's.
 */
export const settingsUpdateSchema = z.extend(settingsFieldsUpdateSchema, {
  mcp_config: z.optional(z.nullable(mcpConfigSchema)),
  secrets_store: z.optional(secretsStoreSchema),
});
export type SettingsUpdate = z.output<typeof settingsUpdateSchema>;
export type SettingsUpdateInput = z.input<typeof settingsUpdateSchema>;
