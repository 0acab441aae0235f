import type { McpConfig } from '../../src/contract/mcp';
import { DEFAULT_SETTINGS, SECRET_FIELDS, type Settings, type SettingsResponse, type SettingsUpdate } from '../../src/contract/settings';
import type { SecretBox } from '../secret-box';
import type { SettingsStore } from '../store/settings-store';
import type { SecretsService } from './secrets-service';
import { DEFAULT_USER } from './users';

/** The MCP server kinds that carry an API key. */
type KeyedKind = 'sse_servers' | 'shttp_servers';
type KeyedServer = { url: string; api_key?: string | null };
type WithChangedServers<M, Extra> = {
  [K in keyof M]: K extends KeyedKind ? (M[K] extends (infer S)[] ? Omit<S, keyof Extra> & Extra : never)[] : M[K];
};

/** Rewrites every SSE and SHTTP server with the fields `change` returns for it. */
function mapKeyedServers<M extends Record<KeyedKind, KeyedServer[]>, Extra extends object>(
  mcp: M,
  change: (server: KeyedServer, kind: KeyedKind) => Extra,
): WithChangedServers<M, Extra> {
  const changed = (kind: KeyedKind) => mcp[kind].map((server) => ({ ...server, ...change(server, kind) }));
  // The spread keeps each server's own fields; TypeScript can't follow that through `map`.
  return { ...mcp, sse_servers: changed('sse_servers'), shttp_servers: changed('shttp_servers') } as WithChangedServers<M, Extra>;
}

/** `null`/absent keeps the stored secret, a blank string clears it, anything else replaces it. */
function nextSecret(incoming: string | null | undefined, stored: string | null): string | null {
  if (incoming === undefined || incoming === null) return stored;
  return incoming.trim() === '' ? null : incoming;
}

/** Applies a POST body to stored settings: present fields replace, secrets follow `nextSecret`. */
export function applyUpdate(current: Settings, update: SettingsUpdate): Settings {
  // secrets_store is not part of the settings document: SecretsService stores it (see update).
  const { secrets_store: _ignored, mcp_config, ...fields } = update;
  const next: Settings = { ...current };
  for (const [key, value] of Object.entries(fields) as [keyof typeof fields, unknown][]) {
    if (value !== undefined) (next as Record<string, unknown>)[key] = value;
  }
  for (const field of SECRET_FIELDS) next[field] = nextSecret(update[field], current[field]);
  if (mcp_config !== undefined) next.mcp_config = mcp_config && keepMcpKeys(mcp_config, current.mcp_config);
  return next;
}

/**
 * An MCP server sent with `api_key: null` keeps the key stored for the same kind and URL; a
 * server whose URL or kind changed starts without one.
 */
function keepMcpKeys(incoming: McpConfig, stored: McpConfig | null): McpConfig {
  return mapKeyedServers(incoming, (server, kind) => ({
    api_key: nextSecret(server.api_key, stored?.[kind].find((s) => s.url === server.url)?.api_key ?? null),
  }));
}

const isSet = (secret: string | null | undefined): boolean => typeof secret === 'string' && secret.trim() !== '';

/** What a GET shows: every secret value replaced by `null` and a `*_set` flag. */
export function toResponse(settings: Settings, providerHosts: Record<string, string | null>): SettingsResponse {
  return {
    ...settings,
    llm_api_key: null,
    search_api_key: null,
    sandbox_api_key: null,
    mcp_config:
      settings.mcp_config && mapKeyedServers(settings.mcp_config, (server) => ({ api_key: null, api_key_set: isSet(server.api_key) })),
    secrets_store: { provider_tokens: {}, custom_secrets: {} },
    llm_api_key_set: isSet(settings.llm_api_key),
    search_api_key_set: isSet(settings.search_api_key),
    sandbox_api_key_set: isSet(settings.sandbox_api_key),
    provider_tokens_set: providerHosts,
  };
}

/** Applies `transform` to every secret value in the settings (to seal or open them). */
function mapSecrets(settings: Settings, transform: (secret: string) => string): Settings {
  const apply = (secret: string | null | undefined) => (secret ? transform(secret) : null);
  const next: Settings = { ...settings };
  for (const field of SECRET_FIELDS) next[field] = apply(settings[field]);
  if (settings.mcp_config) next.mcp_config = mapKeyedServers(settings.mcp_config, (server) => ({ api_key: apply(server.api_key) }));
  return next;
}

export class SettingsService {
  constructor(
    private readonly store: SettingsStore,
    private readonly box: SecretBox,
    private readonly secrets: SecretsService,
    private readonly userId: string = DEFAULT_USER,
  ) {}

  /**
   * The stored settings with secrets hidden, or `undefined` before anything was stored. Git
   * providers connected before the first settings save count as stored: the answer then has the
   * default settings, so a client still learns about them.
   */
  async read(): Promise<SettingsResponse | undefined> {
    const [document, hosts] = await Promise.all([this.store.load(this.userId), this.secrets.providerHosts()]);
    if (document === undefined && Object.keys(hosts).length === 0) return undefined;
    return toResponse(document === undefined ? DEFAULT_SETTINGS : this.#open(document), hosts);
  }

  /** The settings with secret values, for the server's own use; never answer this to a client. */
  async readWithSecrets(): Promise<Settings | undefined> {
    const document = await this.store.load(this.userId);
    return document === undefined ? undefined : this.#open(document);
  }

  /** The API key stored for an SSE or SHTTP server of this kind and URL, if any. */
  async storedMcpKey(kind: 'sse' | 'shttp', url: string): Promise<string | null> {
    const mcp = (await this.readWithSecrets())?.mcp_config;
    const servers = kind === 'sse' ? mcp?.sse_servers : mcp?.shttp_servers;
    return servers?.find((server) => server.url === url)?.api_key ?? null;
  }

  /**
   * Stores a POST body. Its `secrets_store` goes to the secrets first: that is where a value can
   * still be refused (a token the provider rejects), and then nothing else has changed yet.
   */
  async update(update: SettingsUpdate): Promise<void> {
    if (update.secrets_store) await this.secrets.mergeSecretsStore(update.secrets_store);
    await this.store.update(this.userId, (document) => {
      const current = document === undefined ? DEFAULT_SETTINGS : this.#open(document);
      return JSON.stringify(mapSecrets(applyUpdate(current, update), (s) => this.box.seal(s)));
    });
  }

  /** Stored documents gain fields over time; defaults fill what an older document lacks. */
  #open(document: string): Settings {
    const stored = JSON.parse(document) as Partial<Settings>;
    return mapSecrets({ ...DEFAULT_SETTINGS, ...stored }, (s) => this.box.open(s));
  }
}
