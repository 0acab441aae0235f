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
import type { Provider } from '../../../src/contract/secrets';
import { type SuggestedTask, TASK_PROVIDERS, type TaskProvider } from '../../../src/contract/suggested-tasks';
import { Conflict, NotFound, Unavailable, verbatim } from '../../domain-errors';
import { fetchBranches, fetchGitUser, fetchRepositories, searchBranches, searchRepositories } from '../../git-providers/provider-api';
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
    const tokens = await this.secrets.readProviderTokens(caller);
    const found = tokens.find((t) => isApiProvider(t.provider) && (provider === undefined || t.provider === provider));
    return found && { provider: found.provider as ApiProvider, token: found.token, host: found.host };
  }

  async user(caller: Caller): Promise<GitUser> {
    const account = await this.#account(caller);
    if (!account) throw new NotFound(msg`No GitHub or GitLab token is connected: add one under Settings → Git`);
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

  /** A page of the repository's branches; none (one empty page) without a token, or when the provider cannot be reached. */
  async branches(caller: Caller, query: BranchesQuery): Promise<PaginatedBranches> {
    const none = { branches: [], has_next_page: false, current_page: query.page, per_page: query.per_page, total_count: 0 };
    const account = await this.#account(caller, query.selected_provider);
    if (!account) return none;
    try {
      return await fetchBranches(account, query);
    } catch (error) {
      if (!(error instanceof ProviderUnreachable)) throw this.#domainError(error);
      this.log.warn({ reason: error.message }, 'git provider unreachable: returning no branches');
      return none;
    }
  }

  async searchBranches(caller: Caller, query: BranchSearchQuery): Promise<Branch[]> {
    const account = await this.#account(caller, query.selected_provider);
    if (!account) return [];
    return this.#listOrEmpty(() => searchBranches(account, query));
  }

  /**
   * The GitHub App installations (Bitbucket workspaces) whose repositories OpenHands' web client
   * lists one by one: none here. A stored token reaches its repositories without them, and
   * Bitbucket's API is not read (its repositories are not listed).
   */
  installations(): string[] {
    return [];
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
