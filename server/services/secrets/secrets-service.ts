import { msg } from '@lingui/core/macro';
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
import type { Subject } from '../../authz/caller';
import type { DataAccess } from '../../authz/data-access';
import { Conflict, Invalid, NotFound, verbatim } from '../../domain-errors';
import { type AuditRecorder, NO_AUDIT } from '../audit/audit-recorder';
import { changesOf, secretNames } from '../audit/audit-diff';

const secretExists = (name: string) => new Conflict(msg`Secret ${name} already exists`);
const secretNotFound = (name: string) => new NotFound(msg`Secret with ID ${name} not found`);

/**
 * Git provider tokens and custom secrets: sealed at rest, never returned. Tokens are checked
 * against the provider on Verify, and on save (`checkOnSave`, VERIFY_GIT_TOKENS) when they are new
 * or move to a new host; the last time the provider accepted one is stored.
 */
export class SecretsService {
  constructor(
    private readonly data: DataAccess,
    private readonly box: SecretBox,
    private readonly verify: TokenVerifier,
    private readonly checkOnSave: boolean,
    private readonly audit: AuditRecorder = NO_AUDIT,
  ) {}

  /** Records a change of the git tokens: each provider's host as it was and is, the token by name only. */
  async #recordTokens(subject: Subject, before: { provider: string; host: string | null; token: string }[], after: typeof before) {
    const hosts = (tokens: typeof before) => Object.fromEntries(tokens.map((t) => [`${t.provider}.host`, t.host ?? '(public)']));
    const diff = {
      ...changesOf(hosts(before), hosts(after)),
      ...secretNames(
        before.map((t) => `${t.provider}.token`),
        after.map((t) => `${t.provider}.token`),
        after.filter((t) => before.some((b) => b.provider === t.provider && b.token !== t.token)).map((t) => `${t.provider}.token`),
      ),
    };
    if (Object.keys(diff).length > 0)
      await this.audit.record(subject, { action: 'write', resourceType: 'git_token', resourceId: subject.userId, diff });
  }

  /** Records a custom secret's change, by its name. */
  async #recordSecret(subject: Subject, action: 'create' | 'write' | 'delete', name: string, diff = {}) {
    await this.audit.record(subject, { action, resourceType: 'secret', resourceId: subject.userId, resourceTarget: name, diff });
  }

  #records(subject: Subject) {
    return this.data.as(subject).secrets;
  }

  /** `{provider: host | null}` for each provider with a stored token. */
  async providerHosts(subject: Subject): Promise<Record<string, string | null>> {
    const tokens = await this.#records(subject).listProviderTokens(subject.userId);
    return Object.fromEntries(tokens.map((t) => [t.provider, t.host]));
  }

  /** Each connected provider with its host and when the provider last accepted its token. */
  async providerStatuses(subject: Subject): Promise<GitProviderStatus[]> {
    const tokens = await this.#records(subject).listProviderTokens(subject.userId);
    return tokens.flatMap(({ provider, host, checked_at }) => (isProvider(provider) ? [{ provider, host, checked_at }] : []));
  }

  /** Asks the provider about its stored token now, and remembers an acceptance (or forgets one on a refusal). */
  async checkProviderToken(subject: Subject, provider: Provider): Promise<TokenCheck> {
    const stored = (await this.#records(subject).listProviderTokens(subject.userId)).find((t) => t.provider === provider);
    if (!stored) throw new NotFound(msg`${PROVIDER_NAMES[provider]} is not connected`);
    const verdict = await this.verify(provider, this.box.open(stored.token), stored.host);
    let checkedAt = stored.checked_at;
    if (verdict.outcome === 'accepted' || verdict.outcome === 'refused') {
      checkedAt = verdict.outcome === 'accepted' ? new Date().toISOString() : null;
      await this.#records(subject).recordProviderCheck(subject.userId, stored, checkedAt);
    }
    const detail = verdict.outcome === 'accepted' ? `${PROVIDER_NAMES[provider]} accepted the token` : verdict.reason;
    return { provider, outcome: verdict.outcome, detail, checked_at: checkedAt };
  }

  /**
   * `POST /api/add-git-providers`: the stored set becomes the request's. A provider sent with an
   * empty token keeps its stored token (with the new host); providers left out are removed.
   */
  replaceProviderTokens(subject: Subject, tokens: ProviderTokens): Promise<void> {
    return this.#applyTokens(subject, tokens, false);
  }

  /** `secrets_store.provider_tokens` of a settings save: like a replace, but others stay. */
  mergeProviderTokens(subject: Subject, tokens: ProviderTokens): Promise<void> {
    return this.#applyTokens(subject, tokens, true);
  }

  async unsetProviderTokens(subject: Subject): Promise<void> {
    let before: { provider: string; host: string | null; token: string }[] = [];
    await this.#records(subject).updateProviderTokens(subject.userId, (current) => {
      before = current;
      return [];
    });
    await this.#recordTokens(subject, before, []);
  }

  async #applyTokens(subject: Subject, incoming: ProviderTokens, keepOthers: boolean): Promise<void> {
    // An empty token keeps the stored one; the host is always the one sent (absent means the public host).
    const changes = Object.entries(incoming)
      .filter((entry): entry is [Provider, NonNullable<(typeof entry)[1]>] => isProvider(entry[0]))
      .map(([provider, given]) => ({ provider, token: given.token || undefined, host: given.host || null }));

    const accepted = this.checkOnSave ? await this.#check(subject, changes) : new Set<Provider>();

    // Applied to the set as it is when written, so nothing done meanwhile (a disconnect) is undone.
    const sealed = new Map(changes.map((c) => [c.provider, c.token ? this.box.seal(c.token) : undefined]));
    const checkedNow = new Date().toISOString();
    let written: { before: { provider: string; host: string | null; token: string }[]; after: typeof written.before } = {
      before: [],
      after: [],
    };
    await this.#records(subject).updateProviderTokens(subject.userId, (current) => {
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
      const after = [...next.values()];
      written = { before: current, after };
      return after;
    });
    await this.#recordTokens(subject, written.before, written.after);
  }

  /**
   * Asks the providers about new tokens, and about stored tokens moving to a new host (a refusal
   * then belongs to the host the user changed). Runs before any write: it may take seconds.
   * Returns the providers that accepted theirs.
   */
  async #check(
    subject: Subject,
    changes: { provider: Provider; token: string | undefined; host: string | null }[],
  ): Promise<Set<Provider>> {
    const stored = new Map((await this.#records(subject).listProviderTokens(subject.userId)).map((t) => [t.provider, t]));
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
        : [{ loc: ['provider_tokens', c.provider, c.field], msg: verbatim(verdict.reason) }];
    });
    if (problems.length > 0) throw new Invalid(problems);
    return new Set(checks.filter((_, i) => verdicts[i]!.outcome === 'accepted').map((c) => c.provider));
  }

  /** Token values, for the server's own use (cloning repositories); never return them. */
  async readProviderTokens(subject: Subject): Promise<{ provider: string; token: string; host: string | null }[]> {
    return (await this.#records(subject).listProviderTokens(subject.userId)).map((t) => ({
      provider: t.provider,
      token: this.box.open(t.token),
      host: t.host,
    }));
  }

  async listCustomSecrets(subject: Subject): Promise<CustomSecrets> {
    const secrets = await this.#records(subject).listCustomSecrets(subject.userId);
    return { custom_secrets: secrets.map(({ name, description }) => ({ name, description })) };
  }

  async createCustomSecret(subject: Subject, input: { name: string; value: string; description?: string | null }): Promise<void> {
    const created = await this.#records(subject).insertCustomSecret(subject.userId, {
      name: input.name,
      value: this.box.seal(input.value),
      description: input.description ?? '',
    });
    if (!created) throw secretExists(input.name);
    await this.#recordSecret(subject, 'create', input.name, {
      ...changesOf({}, { description: input.description ?? '' }),
      ...secretNames([], ['value']),
    });
  }

  async updateCustomSecret(
    subject: Subject,
    name: string,
    input: { name?: string; description?: string | null; value?: string },
  ): Promise<void> {
    const outcome = await this.#records(subject).updateCustomSecret(subject.userId, name, {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.description === undefined ? {} : { description: input.description ?? '' }),
      ...(input.value === undefined ? {} : { value: this.box.seal(input.value) }),
    });
    if (outcome === 'not-found') throw secretNotFound(name);
    if (outcome === 'name-taken') throw secretExists(input.name ?? name);
    await this.#recordSecret(subject, 'write', name, {
      ...(input.name === undefined || input.name === name ? {} : changesOf({ name }, { name: input.name })),
      ...(input.description === undefined ? {} : { description: { old: null, new: input.description ?? '', secret: false } }),
      ...(input.value === undefined ? {} : secretNames([], [], ['value'])),
    });
  }

  async deleteCustomSecret(subject: Subject, name: string): Promise<void> {
    if (!(await this.#records(subject).deleteCustomSecret(subject.userId, name))) throw secretNotFound(name);
    await this.#recordSecret(subject, 'delete', name);
  }

  /** Custom secret values, for the server's own use (a sandbox's environment); never return them. */
  async readCustomSecrets(subject: Subject): Promise<{ name: string; value: string }[]> {
    return (await this.#records(subject).listCustomSecrets(subject.userId)).map((s) => ({ name: s.name, value: this.box.open(s.value) }));
  }

  /**
   * `secrets_store` of a settings save: tokens merge as above; each named secret is added or
   * changed (an empty or missing value keeps the stored one; a new secret needs one).
   */
  async mergeSecretsStore(subject: Subject, update: SecretsStoreUpdate): Promise<void> {
    const secrets = Object.entries(update.custom_secrets ?? {});
    const existing = new Set((await this.#records(subject).listCustomSecrets(subject.userId)).map((s) => s.name));
    const missing = secrets.filter(([name, s]) => !existing.has(name) && !s.secret);
    if (missing.length > 0) {
      throw new Invalid(missing.map(([name]) => ({ loc: ['custom_secrets', name, 'secret'], msg: msg`A new secret needs a value` })));
    }
    if (update.provider_tokens) await this.mergeProviderTokens(subject, update.provider_tokens);
    await this.#records(subject).upsertCustomSecrets(
      subject.userId,
      secrets.map(([name, s]) => ({
        name,
        ...(s.secret ? { value: this.box.seal(s.secret) } : {}),
        ...(s.description === undefined ? {} : { description: s.description ?? '' }),
      })),
    );
    for (const [name, s] of secrets)
      await this.#recordSecret(subject, existing.has(name) ? 'write' : 'create', name, s.secret ? secretNames([], [], ['value']) : {});
  }

  /** Removes a user's tokens and custom secrets (the user was deleted). */
  async forget(subject: Subject): Promise<void> {
    await this.#records(subject).deleteAll(subject.userId);
  }
}
