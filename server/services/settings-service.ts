import {
  DEFAULT_SETTINGS,
  SECRET_FIELDS,
  type Settings,
  type SettingsResponse,
  type SettingsUpdate,
} from '../../src/contract/settings';
import type { McpConfig } from '../../src/contract/mcp';
import type { SecretBox } from '../secret-box';
import type { SettingsStore } from '../store/settings-store';

/** The reference server has one user, as OpenHands in OSS mode does. */
export const DEFAULT_USER = 'default';

type KeyedServer = { url: string; api_key?: string | null };
type KeyedKind = 'sse_servers' | 'shttp_servers';

/** `null`/absent keeps the stored secret, a blank string clears it, anything else replaces it. */
function nextSecret(incoming: string | null | undefined, stored: string | null): string | null {
  if (incoming === undefined || incoming === null) return stored;
  return incoming.trim() === '' ? null : incoming;
}

/**
 * An MCP server sent with `api_key: null` keeps the key stored for the same kind and URL; a
 * server whose URL or kind changed starts without one.
 */
function mergeMcpConfig(incoming: McpConfig, stored: McpConfig | null): McpConfig {
  const keep = <S extends KeyedServer>(kind: KeyedKind, servers: S[]): S[] =>
    servers.map((server) => {
      const previous = stored?.[kind].find((s) => s.url === server.url)?.api_key ?? null;
      return { ...server, api_key: nextSecret(server.api_key, previous) };
    });
  return { ...incoming, sse_servers: keep('sse_servers', incoming.sse_servers), shttp_servers: keep('shttp_servers', incoming.shttp_servers) };
}

/** Applies a POST body to stored settings: present fields replace, secrets follow `nextSecret`. */
export function applyUpdate(current: Settings, update: SettingsUpdate): Settings {
  // secrets_store is validated by the contract but has no meaning here yet (Git & secrets).
  const { secrets_store: _ignored, mcp_config, ...fields } = update;
  const next: Settings = { ...current };
  for (const [key, value] of Object.entries(fields) as [keyof typeof fields, unknown][]) {
    if (value !== undefined) (next as Record<string, unknown>)[key] = value;
  }
  for (const field of SECRET_FIELDS) next[field] = nextSecret(update[field], current[field]);
  if (mcp_config !== undefined) next.mcp_config = mcp_config && mergeMcpConfig(mcp_config, current.mcp_config);
  return next;
}

const isSet = (secret: string | null | undefined): boolean => typeof secret === 'string' && secret.trim() !== '';

/** What a GET shows: every secret value replaced by `null` and a `*_set` flag. */
export function toResponse(settings: Settings): SettingsResponse {
  const mcp = settings.mcp_config;
  return {
    ...settings,
    llm_api_key: null,
    search_api_key: null,
    sandbox_api_key: null,
    mcp_config: mcp && {
      ...mcp,
      sse_servers: mcp.sse_servers.map((s) => ({ ...s, api_key: null, api_key_set: isSet(s.api_key) })),
      shttp_servers: mcp.shttp_servers.map((s) => ({ ...s, api_key: null, api_key_set: isSet(s.api_key) })),
    },
    secrets_store: { provider_tokens: {}, custom_secrets: {} },
    llm_api_key_set: isSet(settings.llm_api_key),
    search_api_key_set: isSet(settings.search_api_key),
    sandbox_api_key_set: isSet(settings.sandbox_api_key),
    provider_tokens_set: {},
  };
}

/** Applies `transform` to every secret value in the settings (to seal or open them). */
function mapSecrets(settings: Settings, transform: (secret: string) => string): Settings {
  const apply = (secret: string | null | undefined) => (secret ? transform(secret) : null);
  const applyToKeys = <S extends KeyedServer>(servers: S[]): S[] => servers.map((s) => ({ ...s, api_key: apply(s.api_key) }));
  const next: Settings = { ...settings };
  for (const field of SECRET_FIELDS) next[field] = apply(settings[field]);
  const mcp = settings.mcp_config;
  if (mcp) next.mcp_config = { ...mcp, sse_servers: applyToKeys(mcp.sse_servers), shttp_servers: applyToKeys(mcp.shttp_servers) };
  return next;
}

export class SettingsService {
  constructor(
    private readonly store: SettingsStore,
    private readonly secrets: SecretBox,
    private readonly userId: string = DEFAULT_USER,
  ) {}

  /** The stored settings with secrets hidden, or `undefined` before anything was stored. */
  async read(): Promise<SettingsResponse | undefined> {
    const document = await this.store.load(this.userId);
    return document === undefined ? undefined : toResponse(this.#open(document));
  }

  async update(update: SettingsUpdate): Promise<void> {
    await this.store.update(this.userId, (document) => {
      const current = document === undefined ? DEFAULT_SETTINGS : this.#open(document);
      return JSON.stringify(mapSecrets(applyUpdate(current, update), (s) => this.secrets.seal(s)));
    });
  }

  /** Stored documents gain fields over time; defaults fill what an older document lacks. */
  #open(document: string): Settings {
    const stored = JSON.parse(document) as Partial<Settings>;
    return mapSecrets({ ...DEFAULT_SETTINGS, ...stored }, (s) => this.secrets.open(s));
  }
}
