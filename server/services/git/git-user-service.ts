import { msg } from '@lingui/core/macro';
import type { Caller } from '../../authz/caller';
import type {
  Branch,
  BranchesQuery,
  BranchSearchQuery,
  GitUser,
  PaginatedBranches,
  RepositoriesQuery,
  Repository,
  RepositorySearchQuery,
} from '../../git-providers/git-user-schemas';
import { PROVIDER_NAMES, type Provider } from '../../../src/contract/secrets';
import { type SuggestedTask, TASK_PROVIDERS, type TaskProvider } from '../../../src/contract/suggested-tasks';
import { Conflict, Invalid, NotFound, Unavailable, verbatim } from '../../domain-errors';
import {
  fetchBranches,
  fetchGitUser,
  fetchInstallations,
  fetchRepositories,
  searchBranches,
  searchRepositories,
} from '../../git-providers/provider-api';
import {
  API_PROVIDERS,
  type ApiProvider,
  type ProviderAccount,
  ProviderRefusedToken,
  ProviderUnreachable,
} from '../../git-providers/provider-http';
import { fetchSuggestedTasks } from '../../git-providers/suggested-tasks';
import type { Logger } from '../../logger';
import type { SecretsService } from '../secrets/secrets-service';

const isApiProvider = (provider: string): provider is ApiProvider => (API_PROVIDERS as readonly string[]).includes(provider);
const isTaskProvider = (provider: string): provider is TaskProvider => (TASK_PROVIDERS as readonly string[]).includes(provider);

/**
 * `/api/user/*`: the connected provider's view of its user, for OpenHands' web client. No
 * token is a 404 (user) or an empty list; a provider that cannot be reached or is rate limiting
 * is a 503 (user) or an empty list, as OpenHands responds; a refused token is a 409 that says to connect a new one.
 */
export class GitUserService {
  constructor(
    private readonly secrets: SecretsService,
    private readonly log: Logger,
  ) {}

  /** The stored token of `provider`, or of the first provider this server can ask. */
  async #account(caller: Caller, provider?: Provider): Promise<ProviderAccount | undefined> {
    return (await this.#accounts(caller, provider)).find((account) => provider === undefined || account.provider === provider);
  }

  /** The stored tokens this server can ask, `provider`'s first. */
  async #accounts(caller: Caller, provider?: Provider): Promise<ProviderAccount[]> {
    const tokens = await this.secrets.readProviderTokens(caller);
    const accounts = tokens.flatMap((t) => (isApiProvider(t.provider) ? [{ provider: t.provider, token: t.token, host: t.host }] : []));
    return [...accounts.filter((a) => a.provider === provider), ...accounts.filter((a) => a.provider !== provider)];
  }

  async user(caller: Caller): Promise<GitUser> {
    const account = await this.#account(caller);
    if (!account) throw new NotFound(msg`No GitHub, GitLab or Bitbucket token is connected: add one under Settings → Git`);
    try {
      return await fetchGitUser(account);
    } catch (error) {
      throw this.#domainError(error);
    }
  }

  async repositories(caller: Caller, query: RepositoriesQuery): Promise<Repository[]> {
    const account = await this.#account(caller, query.selected_provider);
    if (!account) return [];
    return this.#listOrEmpty(() => fetchRepositories(account, query));
  }

  async searchRepositories(caller: Caller, query: RepositorySearchQuery): Promise<Repository[]> {
    const account = await this.#account(caller, query.selected_provider);
    if (!account) return [];
    return this.#listOrEmpty(() => searchRepositories(account, query));
  }

  /**
   * A page of the repository's branches; none (one empty page) without a token, or when the
   * provider cannot be reached. OpenHands' client names no provider: each connected one is asked
   * in turn (the selected one first) until one has the repository, as OpenHands does.
   */
  async branches(caller: Caller, query: BranchesQuery): Promise<PaginatedBranches> {
    const none = { branches: [], has_next_page: false, current_page: query.page, per_page: query.per_page, total_count: 0 };
    return (await this.#firstAnswer(caller, query.selected_provider, (account) => fetchBranches(account, query))) ?? none;
  }

  /** As the branches, but a selected provider is the only one asked (as OpenHands searches). */
  async searchBranches(caller: Caller, query: BranchSearchQuery): Promise<Branch[]> {
    const search = (account: ProviderAccount) => searchBranches(account, query);
    return (await this.#firstAnswer(caller, query.selected_provider, search, { selectedOnly: true })) ?? [];
  }

  /**
   * Where OpenHands' web client lists repositories one installation at a time (Bitbucket's in
   * its OSS mode): the GitHub App installations the token may use, or the Bitbucket workspaces
   * of its user. None without a token, or when the provider cannot be reached or refuses, as
   * from OpenHands; GitLab has none (OpenHands refuses the question).
   */
  async installations(caller: Caller, provider: Provider): Promise<string[]> {
    if (provider !== 'github' && provider !== 'bitbucket') {
      const name = PROVIDER_NAMES[provider];
      throw new Invalid(['provider'], msg`${name} has no installations: ask for github or bitbucket`, provider);
    }
    const account = await this.#account(caller, provider);
    if (!account) return [];
    try {
      return await fetchInstallations({ ...account, provider });
    } catch (error) {
      if (!(error instanceof ProviderUnreachable || error instanceof ProviderRefusedToken)) throw error;
      this.log.warn({ provider, reason: error.message }, 'no installations from a git provider');
      return [];
    }
  }

  /**
   * The tasks each connected GitHub, GitLab and Bitbucket suggests, one provider after another (as
   * OpenHands gathers them). A provider that cannot be reached is left out; a refused token is a
   * 409 only when no provider answered.
   */
  async suggestedTasks(caller: Caller): Promise<SuggestedTask[]> {
    const tokens = await this.secrets.readProviderTokens(caller);
    const accounts = tokens.flatMap((t) => (isTaskProvider(t.provider) ? [{ provider: t.provider, token: t.token, host: t.host }] : []));
    const lists = await Promise.allSettled(accounts.map((account) => fetchSuggestedTasks(account)));
    const refused = lists.find((list) => list.status === 'rejected' && list.reason instanceof ProviderRefusedToken);
    if (refused && lists.every((list) => list.status === 'rejected')) throw this.#domainError((refused as PromiseRejectedResult).reason);
    return lists.flatMap((list, index) => {
      if (list.status === 'fulfilled') return list.value;
      if (!(list.reason instanceof ProviderUnreachable || list.reason instanceof ProviderRefusedToken)) throw list.reason;
      this.log.warn(
        { provider: accounts[index]!.provider, reason: (list.reason as Error).message },
        'no suggested tasks from a git provider',
      );
      return [];
    });
  }

  /**
   * What the first connected provider that has the repository answers; `undefined` when none has
   * it or none can be reached. A refused token is a 409 when no provider answered.
   */
  async #firstAnswer<T>(
    caller: Caller,
    provider: Provider | undefined,
    read: (account: ProviderAccount) => Promise<T>,
    { selectedOnly = false } = {},
  ): Promise<T | undefined> {
    let refused: ProviderRefusedToken | undefined;
    const accounts = await this.#accounts(caller, provider);
    for (const account of selectedOnly && provider ? accounts.filter((a) => a.provider === provider) : accounts) {
      try {
        return await read(account);
      } catch (error) {
        if (error instanceof ProviderRefusedToken) refused ??= error;
        else if (error instanceof ProviderUnreachable)
          this.log.warn({ provider: account.provider, reason: error.message }, 'git provider did not answer');
        else throw error;
      }
    }
    if (refused) throw this.#domainError(refused);
    return undefined;
  }

  async #listOrEmpty<T>(read: () => Promise<T[]>): Promise<T[]> {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof ProviderUnreachable)) throw this.#domainError(error);
      this.log.warn({ reason: error.message }, 'git provider unreachable: returning an empty list');
      return [];
    }
  }

  #domainError(error: unknown): Error {
    if (error instanceof ProviderRefusedToken) return new Conflict(verbatim(error.message));
    if (error instanceof ProviderUnreachable) return new Unavailable(verbatim(error.message));
    return error instanceof Error ? error : new Error(String(error));
  }
}
