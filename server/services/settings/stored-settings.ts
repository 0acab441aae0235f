import * as z from 'zod/mini';
import { DEFAULT_SETTINGS, SECRET_FIELDS, type Settings, storedSettingsFields } from '../../../src/contract/settings';
import type { Logger } from '../../logger';
import type { SecretBox } from '../../secret-box';
import { mapKeyedServers } from './mcp-keys';

/*
 * The settings document as stored: one JSON object per user, secret values sealed. It is read
 * field by field, so one value that no longer fits the contract (stored by an older version, or
 * edited by hand) costs that field, not the whole page; and a save writes back only the fields
 * it changes, so such a value stays as it was until the user sets that field again.
 */

export interface StoredSettings {
  /** Every field, with its default where the stored value could not be read. */
  settings: Settings;
  /** The document exactly as stored, secrets sealed. */
  document: Record<string, unknown>;
}

type SettingsField = keyof Settings;
const FIELDS = Object.keys(DEFAULT_SETTINGS) as SettingsField[];
export const isSecretField = (field: SettingsField): field is (typeof SECRET_FIELDS)[number] =>
  (SECRET_FIELDS as readonly string[]).includes(field);

function parseDocument(text: string | undefined, log: Logger): Record<string, unknown> {
  if (text === undefined) return { ...DEFAULT_SETTINGS };
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  log.warn('the stored settings document is not a JSON object; serving the defaults until the next save');
  return {};
}

/**
 * How secrets are read: `open`, for the server's own use; `sealed`, for a response that only says
 * whether each is set (a sealed value is never blank), so a GET decrypts none of them. MCP stdio
 * env values are opened either way: the console edits them.
 */
export type SecretsRead = 'open' | 'sealed';

/** One stored field, its secrets read as `secrets` says; `undefined` (and a log line naming where) when it does not read. */
function readField<K extends SettingsField>(
  field: K,
  value: unknown,
  box: SecretBox,
  log: Logger,
  secrets: SecretsRead,
): Settings[K] | undefined {
  const result = z.safeParse(storedSettingsFields[field], value);
  if (!result.success) {
    for (const issue of result.error.issues) {
      log.warn({ field: [field, ...issue.path].join('.'), problem: issue.code }, 'a stored setting does not read; serving its default');
    }
    return undefined;
  }
  try {
    // The schemas are keyed as Settings is; TypeScript can't follow that through the index.
    return openSecrets(field, result.data as Settings[K], box, secrets);
  } catch {
    log.warn({ field }, 'a stored secret setting cannot be opened; serving its default');
    return undefined;
  }
}

function openSecrets<K extends SettingsField>(field: K, value: Settings[K], box: SecretBox, secrets: SecretsRead): Settings[K] {
  return transformSecrets(field, value, secrets === 'open' ? (secret) => box.open(secret) : (sealed) => sealed, (envValue) =>
    openEnvValue(envValue, box),
  );
}

/**
 * An MCP stdio env value as stored: sealed, or plain when an older server stored it. A plain one
 * reads as it is (it is sealed when the MCP servers are next saved, or by `hasPlainMcpEnv`'s caller
 * at start).
 */
function openEnvValue(stored: string, box: SecretBox): string {
  try {
    return box.open(stored);
  } catch {
    return stored;
  }
}

/** `value` of `field` with `transform` applied to every secret in it (sealing or opening); MCP stdio env values get `envTransform`. */
function transformSecrets<K extends SettingsField>(
  field: K,
  value: Settings[K],
  transform: (secret: string) => string,
  envTransform: (envValue: string) => string = transform,
): Settings[K] {
  const apply = (secret: string | null | undefined) => (secret ? transform(secret) : null);
  if (isSecretField(field)) return apply(value as string | null) as Settings[K];
  if (field === 'mcp_config' && value) {
    const mcp = mapKeyedServers(value as NonNullable<Settings['mcp_config']>, (server) => ({ api_key: apply(server.api_key) }));
    // Env values often are keys (GITHUB_TOKEN=…): sealed like them, though the console gets them back for its editor.
    const stdio_servers = mcp.stdio_servers.map((server) => ({
      ...server,
      env: Object.fromEntries(Object.entries(server.env).map(([name, envValue]) => [name, envTransform(envValue)])),
    }));
    return { ...mcp, stdio_servers } as Settings[K];
  }
  return value;
}

/** Whether the stored document still has MCP stdio env values in plain text (stored before they were sealed). */
export function hasPlainMcpEnv(stored: StoredSettings, box: SecretBox): boolean {
  const raw = z.safeParse(storedSettingsFields.mcp_config, stored.document.mcp_config);
  if (!raw.success || !raw.data) return false;
  return raw.data.stdio_servers.some((server) => Object.values(server.env).some((envValue) => openEnvValue(envValue, box) === envValue));
}

export function readStoredSettings(text: string | undefined, box: SecretBox, log: Logger, secrets: SecretsRead = 'open'): StoredSettings {
  const document = parseDocument(text, log);
  const settings: Settings = { ...DEFAULT_SETTINGS };
  for (const field of FIELDS) {
    if (!(field in document)) continue; // a field added after this document was written
    const value = readField(field, document[field], box, log, secrets);
    if (value !== undefined) (settings as Record<SettingsField, unknown>)[field] = value;
  }
  return { settings, document };
}

/** The document to store: `stored` with the `changed` fields taken from `next`, sealed. */
export function writeStoredSettings(stored: StoredSettings, next: Settings, changed: SettingsField[], box: SecretBox): string {
  const document = { ...stored.document };
  for (const field of changed) document[field] = transformSecrets(field, next[field], (secret) => box.seal(secret));
  return JSON.stringify(document);
}
