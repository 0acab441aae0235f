import { msg } from '@lingui/core/macro';
import type { McpConfig, McpConfigResponse } from '../../../src/contract/mcp';
import { DEFAULT_SETTINGS, SECRET_FIELDS, type Settings, type SettingsResponse, type SettingsUpdate } from '../../../src/contract/settings';
import {
  ORGANIZATION_DEFAULT_FIELDS,
  type OrganizationDefaults,
  type OrganizationDefaultsUpdate,
} from '../../../src/contract/organization-defaults';
import { teamOnlyMcp, withOrganizationDefaults } from './organization-defaults';
import { memoised } from '../json-texts';
import { Invalid, NotFound } from '../../domain-errors';
import type { Logger } from '../../logger';
import type { SecretBox } from '../../secret-box';
import type { Subject } from '../../authz/caller';
import type { DataAccess } from '../../authz/data-access';
import { type AuditRecorder, NO_AUDIT } from '../audit/audit-recorder';
import { settingsChanges } from '../audit/settings-changes';
import type { SecretsService } from '../secrets/secrets-service';
import type { UserRecord } from '../../store/users-store';
import { mapKeyedServers } from './mcp-keys';
import { hasPlainMcpEnv, isSecretField, readStoredSettings, type StoredSettings, writeStoredSettings } from './stored-settings';

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

/**
 * The team's MCP servers as a user's GET shows them beside their own: what the agent gets of them,
 * with no secret (an API key as whether it is set, a variable's name without its value, a URL
 * without user, password or query).
 */
function teamMcpResponse(own: McpConfig | null, team: McpConfig | null): McpConfigResponse | undefined {
  if (!team) return undefined;
  const theirs = teamOnlyMcp(own, team);
  if (theirs.sse_servers.length + theirs.shttp_servers.length + theirs.stdio_servers.length === 0) return undefined;
  return mapKeyedServers(
    {
      ...theirs,
      stdio_servers: theirs.stdio_servers.map((server) => ({
        ...server,
        env: Object.fromEntries(Object.keys(server.env).map((name) => [name, ''])),
      })),
    },
    (server) => ({ url: withoutCredentials(server.url), api_key: null, api_key_set: isSet(server.api_key) }),
  );
}

/** A URL without the parts that may hold a credential: user and password, query, fragment. */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}

/**
 * The account's address in Settings' words: `email_verified` says whether an identity provider
 * vouched for it (`false` for one only invited by it); both `null` for a user without one (the
 * owner who holds the session key).
 */
function accountEmail(user: Pick<UserRecord, 'email' | 'email_verified'> | undefined): Pick<Settings, 'email' | 'email_verified'> {
  return user?.email ? { email: user.email, email_verified: user.email_verified === 1 } : { email: null, email_verified: null };
}

/** The stored fields a POST body changes: present ones, except secrets that keep their value. */
function changedFields(update: SettingsUpdate): (keyof Settings)[] {
  return (Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]).filter((field) =>
    isSecretField(field) ? typeof update[field] === 'string' : update[field] !== undefined,
  );
}

export class SettingsService {
  /** Each user's last response of `read` and what it was made from: the console asks often, and the document rarely changes. */
  readonly #lastResponse = new Map<
    string,
    { document: string | undefined; defaults: string | undefined; hosts: string; account: string; response: SettingsResponse }
  >();

  constructor(
    private readonly data: DataAccess,
    private readonly box: SecretBox,
    private readonly secrets: SecretsService,
    private readonly log: Logger,
    private readonly audit: AuditRecorder = NO_AUDIT,
  ) {}

  /** Records a save's changes: the settings' fields, and the MCP servers apart (each only when something changed). */
  async #recordChanges(subject: Subject, resourceType: 'settings' | 'team_defaults', before: Settings, after: Settings) {
    const { settings, mcp } = settingsChanges(before, after);
    const resourceId = resourceType === 'settings' ? subject.userId : null;
    if (Object.keys(settings).length > 0) await this.audit.record(subject, { action: 'write', resourceType, resourceId, diff: settings });
    if (Object.keys(mcp).length > 0)
      await this.audit.record(subject, {
        action: 'write',
        resourceType: 'mcp_server',
        resourceId,
        resourceTarget: resourceType === 'team_defaults' ? 'team' : null,
        diff: mcp,
      });
  }

  /** The stored settings with secrets hidden (see `readIfStored`). Before anything was stored: NotFound. */
  async read(subject: Subject): Promise<SettingsResponse> {
    const response = await this.readIfStored(subject);
    if (response === null) throw new NotFound(msg`Settings not found`);
    return response;
  }

  /**
   * The stored settings with secrets hidden, or `null` before anything was stored. Git providers
   * connected before the first settings save count as stored, and so does the account's email
   * (as OpenHands Cloud's account gives every user settings): the response then has the default
   * settings, so a client still learns about them. `email` and `email_verified` are the
   * account's, as OpenHands Cloud fills them from the signed-in user's token: what a POST sent
   * for them is stored (as OpenHands takes it) but never shown.
   */
  async readIfStored(subject: Subject): Promise<SettingsResponse | null> {
    const { userId } = subject;
    const data = this.data.as(subject);
    const documents = data.settings;
    const [document, hosts, defaults, user] = await Promise.all([
      documents.load(userId),
      this.secrets.providerHosts(subject),
      documents.loadTeamDefaults(),
      data.users.get(userId),
    ]);
    const account = accountEmail(user);
    if (document === undefined && defaults === undefined && Object.keys(hosts).length === 0 && account.email === null) return null;
    const hostsKey = JSON.stringify(hosts);
    const accountKey = JSON.stringify(account);
    const last = this.#lastResponse.get(userId);
    if (last && last.document === document && last.defaults === defaults && last.hosts === hostsKey && last.account === accountKey)
      return last.response;
    // Only whether each secret is set is in the response: none is decrypted for it.
    const sealed = (text: string | undefined) => readStoredSettings(text, this.box, this.log, 'sealed').settings;
    const own = sealed(document);
    const team = defaults === undefined ? undefined : sealed(defaults);
    const { settings, inherited } = withOrganizationDefaults(own, team, false);
    const teamMcp = teamMcpResponse(own.mcp_config, team?.mcp_config ?? null);
    const response = memoised({ ...toResponse(settings, hosts), ...account, inherited, ...(teamMcp && { team_mcp_config: teamMcp }) });
    this.#lastResponse.set(userId, { document, defaults, hosts: hostsKey, account: accountKey, response });
    return response;
  }

  /**
   * The settings with secret values, the team's defaults where the user has none and the team's
   * MCP servers beside their own: what the server acts on. Never send this to a client.
   */
  async readWithSecrets(subject: Subject): Promise<Settings | undefined> {
    const documents = this.data.as(subject).settings;
    const [document, defaults] = await Promise.all([documents.load(subject.userId), documents.loadTeamDefaults()]);
    if (document === undefined && defaults === undefined) return undefined;
    const team = defaults === undefined ? undefined : this.#read(defaults).settings;
    return withOrganizationDefaults(this.#read(document).settings, team, true).settings;
  }

  /** The team's defaults, the key only as whether it is set. */
  async readOrganizationDefaults(subject: Subject): Promise<OrganizationDefaults> {
    const team = readStoredSettings(await this.data.as(subject).settings.loadTeamDefaults(), this.box, this.log, 'sealed').settings;
    const response = toResponse(team, {});
    const picked = Object.fromEntries(ORGANIZATION_DEFAULT_FIELDS.map((field) => [field, response[field]]));
    return { ...(picked as Omit<OrganizationDefaults, 'llm_api_key_set'>), llm_api_key_set: response.llm_api_key_set };
  }

  /** Changes the team's defaults as a settings POST changes a user's (their key and MCP servers' keys kept alike). */
  async updateOrganizationDefaults(subject: Subject, update: OrganizationDefaultsUpdate): Promise<void> {
    let change: [Settings, Settings] | undefined;
    await this.data.as(subject).settings.updateTeamDefaults((document) => {
      const stored = this.#read(document);
      const next = applyUpdate(stored.settings, update);
      change = [stored.settings, next];
      return writeStoredSettings(stored, next, changedFields(update), this.box);
    });
    if (change) await this.#recordChanges(subject, 'team_defaults', ...change);
  }

  /**
   * Settings' sandbox images, each `null` when blank: the runtime image Docker sandboxes of the
   * agent server spec start from, or else the base image theirs is built on.
   */
  async sandboxImages(subject: Subject): Promise<{ runtime: string | null; base: string | null }> {
    const settings = await this.readWithSecrets(subject);
    return {
      runtime: settings?.sandbox_runtime_container_image?.trim() || null,
      base: settings?.sandbox_base_container_image?.trim() || null,
    };
  }

  /** Settings' remote_runtime_resource_factor, 1 when unset: what a Docker sandbox's memory and CPUs are multiplied by. */
  async resourceFactor(subject: Subject): Promise<number> {
    const factor = (await this.readWithSecrets(subject))?.remote_runtime_resource_factor;
    return factor && factor > 0 ? factor : 1;
  }

  /** The API key stored for an SSE or SHTTP server of this kind and URL, if any. */
  async storedMcpKey(subject: Subject, kind: 'sse' | 'shttp', url: string): Promise<string | null> {
    const mcp = (await this.readWithSecrets(subject))?.mcp_config;
    const servers = kind === 'sse' ? mcp?.sse_servers : mcp?.shttp_servers;
    return servers?.find((server) => server.url === url)?.api_key ?? null;
  }

  /**
   * Stores a POST body. Its `secrets_store` goes to the secrets first: that is where a value can
   * still be refused (a token the provider rejects), and then nothing else has changed yet.
   */
  async update(subject: Subject, update: SettingsUpdate): Promise<void> {
    if (update.secrets_store) {
      await this.secrets.mergeSecretsStore(subject, update.secrets_store).catch((error: unknown) => {
        throw error instanceof Invalid ? error.within('secrets_store') : error;
      });
    }
    let change: [Settings, Settings] | undefined;
    await this.data.as(subject).settings.update(subject.userId, (document) => {
      const stored = this.#read(document);
      const next = applyUpdate(stored.settings, update);
      change = [stored.settings, next];
      return writeStoredSettings(stored, next, changedFields(update), this.box);
    });
    if (change) await this.#recordChanges(subject, 'settings', ...change);
  }

  /**
   * Seals MCP stdio env values stored in plain text by a version before they were sealed; only
   * `mcp_config` is written, and only when it has such values. Returns whether it wrote.
   */
  async sealPlainMcpEnv(subject: Subject): Promise<boolean> {
    let sealed = false;
    const documents = this.data.as(subject).settings;
    const document = await documents.load(subject.userId);
    if (document === undefined || !this.#hasPlainMcpEnv(this.#read(document))) return false;
    await documents.update(subject.userId, (current) => {
      const stored = this.#read(current);
      if (current === undefined || !this.#hasPlainMcpEnv(stored)) return current ?? '{}';
      sealed = true;
      return writeStoredSettings(stored, stored.settings, ['mcp_config'], this.box);
    });
    if (sealed) this.log.info('sealed MCP stdio env values stored in plain text');
    return sealed;
  }

  /** Plain env values in an `mcp_config` that reads (one that does not is left as it is, not replaced by its default). */
  #hasPlainMcpEnv(stored: StoredSettings): boolean {
    return stored.settings.mcp_config !== null && hasPlainMcpEnv(stored, this.box);
  }

  /** Removes a user's settings (the user was deleted). */
  async forget(subject: Subject): Promise<void> {
    await this.data.as(subject).settings.delete(subject.userId);
    this.#lastResponse.delete(subject.userId);
  }

  #read(document: string | undefined): StoredSettings {
    return readStoredSettings(document, this.box, this.log);
  }
}
