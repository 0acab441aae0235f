import { type CustomSecrets, type Provider, type ProviderTokens, type SecretsStoreUpdate, isProvider } from '../../src/contract/secrets';
import type { TokenVerifier } from '../git-providers/token-verifier';
import type { SecretBox } from '../secret-box';
import type { SecretsStore } from '../store/secrets-store';
import { DEFAULT_USER } from './users';
import { Conflict, Invalid, NotFound } from '../domain-errors';

const secretExists = (name: string) => new Conflict(`Secret ${name} already exists`);
const secretNotFound = (name: string) => new NotFound(`Secret with ID ${name} not found`);

/**
 * Git provider tokens and custom secrets: sealed at rest, never answered. Tokens can be checked
 * against the provider (`verify`, from VERIFY_GIT_TOKENS) when they are new or move to a new host.
 */
export class SecretsService {
  constructor(
    private readonly store: SecretsStore,
    private readonly box: SecretBox,
    private readonly verify: TokenVerifier | null,
    private readonly userId: string = DEFAULT_USER,
  ) {}

  /** `{provider: host | null}` for each provider with a stored token. */
  async providerHosts(): Promise<Record<string, string | null>> {
    const tokens = await this.store.listProviderTokens(this.userId);
    return Object.fromEntries(tokens.map((t) => [t.provider, t.host]));
  }

  /**
   * `POST /api/add-git-providers`: the stored set becomes the request's. A provider sent with an
   * empty token keeps its stored token (with the new host); providers left out are removed.
   */
  replaceProviderTokens(tokens: ProviderTokens): Promise<void> {
    return this.#applyTokens(tokens, false);
  }

  /** `secrets_store.provider_tokens` of a settings save: like a replace, but others stay. */
  mergeProviderTokens(tokens: ProviderTokens): Promise<void> {
    return this.#applyTokens(tokens, true);
  }

  async unsetProviderTokens(): Promise<void> {
    await this.store.updateProviderTokens(this.userId, () => []);
  }

  async #applyTokens(incoming: ProviderTokens, keepOthers: boolean): Promise<void> {
    // An empty token keeps the stored one; the host is always the one sent (absent means the public host).
    const changes = Object.entries(incoming)
      .filter((entry): entry is [Provider, NonNullable<(typeof entry)[1]>] => isProvider(entry[0]))
      .map(([provider, given]) => ({ provider, token: given.token || undefined, host: given.host || null }));

    if (this.verify) await this.#check(changes);

    // Applied to the set as it is when written, so nothing done meanwhile (a disconnect) is undone.
    const sealed = new Map(changes.map((c) => [c.provider, c.token ? this.box.seal(c.token) : undefined]));
    await this.store.updateProviderTokens(this.userId, (current) => {
      const stored = new Map(current.map((t) => [t.provider, t]));
      const next = new Map(keepOthers ? stored : []);
      for (const change of changes) {
        const token = sealed.get(change.provider) ?? stored.get(change.provider)?.token;
        if (token) next.set(change.provider, { provider: change.provider, token, host: change.host });
        else next.delete(change.provider); // nothing to keep: OpenHands drops entries without a token
      }
      return [...next.values()];
    });
  }

  /**
   * Asks the providers about new tokens, and about stored tokens moving to a new host (a refusal
   * then belongs to the host the user changed). Runs before any write: it may take seconds.
   */
  async #check(changes: { provider: Provider; token: string | undefined; host: string | null }[]): Promise<void> {
    const verify = this.verify!;
    const stored = new Map((await this.store.listProviderTokens(this.userId)).map((t) => [t.provider, t]));
    const checks = changes.flatMap((change) => {
      const before = stored.get(change.provider);
      if (change.token) return [{ ...change, token: change.token, field: 'token' }];
      if (before && change.host !== before.host) return [{ ...change, token: this.box.open(before.token), field: 'host' }];
      return [];
    });
    const reasons = await Promise.all(checks.map((c) => verify(c.provider, c.token, c.host)));
    const problems = checks.flatMap((c, i) => (reasons[i] ? [{ loc: ['provider_tokens', c.provider, c.field], msg: reasons[i] }] : []));
    if (problems.length > 0) throw new Invalid(problems);
  }

  /** Token values, for the server's own use (cloning repositories); never answer them. */
  async readProviderTokens(): Promise<{ provider: string; token: string; host: string | null }[]> {
    return (await this.store.listProviderTokens(this.userId)).map((t) => ({ ...t, token: this.box.open(t.token) }));
  }

  async listCustomSecrets(): Promise<CustomSecrets> {
    const secrets = await this.store.listCustomSecrets(this.userId);
    return { custom_secrets: secrets.map(({ name, description }) => ({ name, description })) };
  }

  async createCustomSecret(input: { name: string; value: string; description?: string | null }): Promise<void> {
    const created = await this.store.insertCustomSecret(this.userId, {
      name: input.name,
      value: this.box.seal(input.value),
      description: input.description ?? '',
    });
    if (!created) throw secretExists(input.name);
  }

  async updateCustomSecret(name: string, input: { name?: string; description?: string | null; value?: string }): Promise<void> {
    const outcome = await this.store.updateCustomSecret(this.userId, name, {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.description === undefined ? {} : { description: input.description ?? '' }),
      ...(input.value === undefined ? {} : { value: this.box.seal(input.value) }),
    });
    if (outcome === 'not-found') throw secretNotFound(name);
    if (outcome === 'name-taken') throw secretExists(input.name ?? name);
  }

  async deleteCustomSecret(name: string): Promise<void> {
    if (!(await this.store.deleteCustomSecret(this.userId, name))) throw secretNotFound(name);
  }

  /** Custom secret values, for the server's own use (a sandbox's environment); never answer them. */
  async readCustomSecrets(): Promise<{ name: string; value: string }[]> {
    return (await this.store.listCustomSecrets(this.userId)).map((s) => ({ name: s.name, value: this.box.open(s.value) }));
  }

  /**
   * `secrets_store` of a settings save: tokens merge as above; each named secret is added or
   * changed (an empty or missing value keeps the stored one; a new secret needs one).
   */
  async mergeSecretsStore(update: SecretsStoreUpdate): Promise<void> {
    const secrets = Object.entries(update.custom_secrets ?? {});
    const existing = new Set((await this.store.listCustomSecrets(this.userId)).map((s) => s.name));
    const missing = secrets.filter(([name, s]) => !existing.has(name) && !s.secret);
    if (missing.length > 0) {
      throw new Invalid(missing.map(([name]) => ({ loc: ['custom_secrets', name, 'secret'], msg: 'A new secret needs a value' })));
    }
    if (update.provider_tokens) await this.mergeProviderTokens(update.provider_tokens);
    await this.store.upsertCustomSecrets(
      this.userId,
      secrets.map(([name, s]) => ({
        name,
        ...(s.secret ? { value: this.box.seal(s.secret) } : {}),
        ...(s.description === undefined ? {} : { description: s.description ?? '' }),
      })),
    );
  }
}
