import {
  type CustomSecrets,
  type GitProviderStatus,
  type Provider,
  PROVIDER_NAMES,
  type ProviderTokens,
  type SecretsStoreUpdate,
  type TokenCheck,
  isProvider,
} from '../../../src/contract/secrets';
import type { TokenVerifier } from '../../git-providers/token-verifier';
import type { SecretBox } from '../../secret-box';
import type { SecretsStore } from '../../store/secrets-store';
import { Conflict, Invalid, NotFound } from '../domain-errors';

const secretExists = (name: string) => new Conflict(`Secret ${name} already exists`);
const secretNotFound = (name: string) => new NotFound(`Secret with ID ${name} not found`);

/**
 * Git provider tokens and custom secrets: sealed at rest, never returned. Tokens are checked
 * against the provider on Verify, and on save (`checkOnSave`, VERIFY_GIT_TOKENS) when they are new
 * or move to a new host; the last time the provider accepted one is stored.
 */
export class SecretsService {
  constructor(
    private readonly store: SecretsStore,
    private readonly box: SecretBox,
    private readonly verify: TokenVerifier,
    private readonly checkOnSave: boolean,
  ) {}

  /** `{provider: host | null}` for each provider with a stored token. */
  async providerHosts(userId: string): Promise<Record<string, string | null>> {
    const tokens = await this.store.listProviderTokens(userId);
    return Object.fromEntries(tokens.map((t) => [t.provider, t.host]));
  }

  /** Each connected provider with its host and when the provider last accepted its token. */
  async providerStatuses(userId: string): Promise<GitProviderStatus[]> {
    const tokens = await this.store.listProviderTokens(userId);
    return tokens.flatMap(({ provider, host, checked_at }) => (isProvider(provider) ? [{ provider, host, checked_at }] : []));
  }

  /** Asks the provider about its stored token now, and remembers an acceptance (or forgets one on a refusal). */
  async checkProviderToken(userId: string, provider: Provider): Promise<TokenCheck> {
    const stored = (await this.store.listProviderTokens(userId)).find((t) => t.provider === provider);
    if (!stored) throw new NotFound(`${PROVIDER_NAMES[provider]} is not connected`);
    const verdict = await this.verify(provider, this.box.open(stored.token), stored.host);
    let checkedAt = stored.checked_at;
    if (verdict.outcome === 'accepted' || verdict.outcome === 'refused') {
      checkedAt = verdict.outcome === 'accepted' ? new Date().toISOString() : null;
      await this.store.recordProviderCheck(userId, stored, checkedAt);
    }
    const detail = verdict.outcome === 'accepted' ? `${PROVIDER_NAMES[provider]} accepted the token` : verdict.reason;
    return { provider, outcome: verdict.outcome, detail, checked_at: checkedAt };
  }

  /**
   * `POST /api/add-git-providers`: the stored set becomes the request's. A provider sent with an
   * empty token keeps its stored token (with the new host); providers left out are removed.
   */
  replaceProviderTokens(userId: string, tokens: ProviderTokens): Promise<void> {
    return this.#applyTokens(userId, tokens, false);
  }

  /** `secrets_store.provider_tokens` of a settings save: like a replace, but others stay. */
  mergeProviderTokens(userId: string, tokens: ProviderTokens): Promise<void> {
    return this.#applyTokens(userId, tokens, true);
  }

  async unsetProviderTokens(userId: string): Promise<void> {
    await this.store.updateProviderTokens(userId, () => []);
  }

  async #applyTokens(userId: string, incoming: ProviderTokens, keepOthers: boolean): Promise<void> {
    // An empty token keeps the stored one; the host is always the one sent (absent means the public host).
    const changes = Object.entries(incoming)
      .filter((entry): entry is [Provider, NonNullable<(typeof entry)[1]>] => isProvider(entry[0]))
      .map(([provider, given]) => ({ provider, token: given.token || undefined, host: given.host || null }));

    const accepted = this.checkOnSave ? await this.#check(userId, changes) : new Set<Provider>();

    // Applied to the set as it is when written, so nothing done meanwhile (a disconnect) is undone.
    const sealed = new Map(changes.map((c) => [c.provider, c.token ? this.box.seal(c.token) : undefined]));
    const checkedNow = new Date().toISOString();
    await this.store.updateProviderTokens(userId, (current) => {
      const stored = new Map(current.map((t) => [t.provider, t]));
      const next = new Map(keepOthers ? stored : []);
      for (const change of changes) {
        const before = stored.get(change.provider);
        const token = sealed.get(change.provider) ?? before?.token;
        // An acceptance holds for the token and host it was given for.
        const unchanged = !sealed.get(change.provider) && before?.host === change.host;
        const checked_at = accepted.has(change.provider) ? checkedNow : unchanged ? (before?.checked_at ?? null) : null;
        if (token) next.set(change.provider, { provider: change.provider, token, host: change.host, checked_at });
        else next.delete(change.provider); // nothing to keep: OpenHands drops entries without a token
      }
      return [...next.values()];
    });
  }

  /**
   * Asks the providers about new tokens, and about stored tokens moving to a new host (a refusal
   * then belongs to the host the user changed). Runs before any write: it may take seconds.
   * Returns the providers that accepted theirs.
   */
  async #check(userId: string, changes: { provider: Provider; token: string | undefined; host: string | null }[]): Promise<Set<Provider>> {
    const stored = new Map((await this.store.listProviderTokens(userId)).map((t) => [t.provider, t]));
    const checks = changes.flatMap((change) => {
      const before = stored.get(change.provider);
      if (change.token) return [{ ...change, token: change.token, field: 'token' }];
      if (before && change.host !== before.host) return [{ ...change, token: this.box.open(before.token), field: 'host' }];
      return [];
    });
    const verdicts = await Promise.all(checks.map((c) => this.verify(c.provider, c.token, c.host)));
    const problems = checks.flatMap((c, i) => {
      const verdict = verdicts[i]!;
      // Nothing to ask (Enterprise SSO) is no reason to refuse.
      return verdict.outcome === 'accepted' || verdict.outcome === 'uncheckable'
        ? []
        : [{ loc: ['provider_tokens', c.provider, c.field], msg: verdict.reason }];
    });
    if (problems.length > 0) throw new Invalid(problems);
    return new Set(checks.filter((_, i) => verdicts[i]!.outcome === 'accepted').map((c) => c.provider));
  }

  /** Token values, for the server's own use (cloning repositories); never return them. */
  async readProviderTokens(userId: string): Promise<{ provider: string; token: string; host: string | null }[]> {
    return (await this.store.listProviderTokens(userId)).map((t) => ({
      provider: t.provider,
      token: this.box.open(t.token),
      host: t.host,
    }));
  }

  async listCustomSecrets(userId: string): Promise<CustomSecrets> {
    const secrets = await this.store.listCustomSecrets(userId);
    return { custom_secrets: secrets.map(({ name, description }) => ({ name, description })) };
  }

  async createCustomSecret(userId: string, input: { name: string; value: string; description?: string | null }): Promise<void> {
    const created = await this.store.insertCustomSecret(userId, {
      name: input.name,
      value: this.box.seal(input.value),
      description: input.description ?? '',
    });
    if (!created) throw secretExists(input.name);
  }

  async updateCustomSecret(
    userId: string,
    name: string,
    input: { name?: string; description?: string | null; value?: string },
  ): Promise<void> {
    const outcome = await this.store.updateCustomSecret(userId, name, {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.description === undefined ? {} : { description: input.description ?? '' }),
      ...(input.value === undefined ? {} : { value: this.box.seal(input.value) }),
    });
    if (outcome === 'not-found') throw secretNotFound(name);
    if (outcome === 'name-taken') throw secretExists(input.name ?? name);
  }

  async deleteCustomSecret(userId: string, name: string): Promise<void> {
    if (!(await this.store.deleteCustomSecret(userId, name))) throw secretNotFound(name);
  }

  /** Custom secret values, for the server's own use (a sandbox's environment); never return them. */
  async readCustomSecrets(userId: string): Promise<{ name: string; value: string }[]> {
    return (await this.store.listCustomSecrets(userId)).map((s) => ({ name: s.name, value: this.box.open(s.value) }));
  }

  /**
   * `secrets_store` of a settings save: tokens merge as above; each named secret is added or
   * changed (an empty or missing value keeps the stored one; a new secret needs one).
   */
  async mergeSecretsStore(userId: string, update: SecretsStoreUpdate): Promise<void> {
    const secrets = Object.entries(update.custom_secrets ?? {});
    const existing = new Set((await this.store.listCustomSecrets(userId)).map((s) => s.name));
    const missing = secrets.filter(([name, s]) => !existing.has(name) && !s.secret);
    if (missing.length > 0) {
      throw new Invalid(missing.map(([name]) => ({ loc: ['custom_secrets', name, 'secret'], msg: 'A new secret needs a value' })));
    }
    if (update.provider_tokens) await this.mergeProviderTokens(userId, update.provider_tokens);
    await this.store.upsertCustomSecrets(
      userId,
      secrets.map(([name, s]) => ({
        name,
        ...(s.secret ? { value: this.box.seal(s.secret) } : {}),
        ...(s.description === undefined ? {} : { description: s.description ?? '' }),
      })),
    );
  }

  /** Removes a user's tokens and custom secrets (the user was deleted). */
  async forget(userId: string): Promise<void> {
    await this.store.deleteAll(userId);
  }
}
