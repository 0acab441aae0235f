import type {
  Branch,
  BranchesQuery,
  BranchSearchQuery,
  GitUser,
  PaginatedBranches,
  RepositoriesQuery,
  Repository,
  RepositorySearchQuery,
  SuggestedTask,
} from './git-user-schemas';
import { PROVIDER_NAMES } from '../../src/contract/secrets';
import { restApiBase } from './token-verifier';

/*
 * What OpenHands' web client asks the connected provider through `/api/user/*`: who the user
 * is, their repositories (listed and searched), a repository's branches, and their open pull
 * requests and issues. GitHub and GitLab only, over their REST APIs (OpenHands uses GitHub's
 * GraphQL for the suggested tasks and the branch search).
 */

/** Providers whose API this server reads. */
export type ApiProvider = 'github' | 'gitlab';
export const API_PROVIDERS: readonly ApiProvider[] = ['github', 'gitlab'];

export interface ProviderAccount {
  provider: ApiProvider;
  token: string;
  host: string | null;
}

/** The provider could not be asked, or did not respond like its API. */
export class ProviderUnreachable extends Error {}
/** The provider is rate limiting this token: the lists are empty for now, the token is fine. */
class ProviderRateLimited extends ProviderUnreachable {}
/** The provider responded, and refused the token. */
export class ProviderRefusedToken extends Error {}

const TIMEOUT_MS = 8000;

interface ApiResponse {
  body: unknown;
  link: string | null;
  /** GitLab's count of every item of a paged list (`X-Total`). */
  total: number | null;
}

async function getJson(account: ProviderAccount, path: string): Promise<ApiResponse> {
  const name = PROVIDER_NAMES[account.provider];
  const url = `${restApiBase(account.provider, account.host)}${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { Authorization: `Bearer ${account.token}`, Accept: 'application/json', 'User-Agent': 'agent-console' },
      // A redirect is not the API's response, and must not carry the token elsewhere.
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error instanceof Error ? error.name : 'error');
    throw new ProviderUnreachable(`Could not reach ${name} at ${url} (${cause})`);
  }
  // GitHub says a spent rate limit with a 403 (or 429) and `x-ratelimit-remaining: 0`: no refused token.
  if (response.status === 429 || (response.status === 403 && response.headers.get('x-ratelimit-remaining') === '0'))
    throw new ProviderRateLimited(`${name} is rate limiting requests with the stored token (HTTP ${response.status}): try again later`);
  if (response.status === 401 || response.status === 403)
    throw new ProviderRefusedToken(`${name} refused the stored token (HTTP ${response.status}): connect a new one under Settings → Git`);
  if (!response.ok) throw new ProviderUnreachable(`${name} at ${url} responded with HTTP ${response.status}`);
  const body: unknown = await response.json().catch(() => undefined);
  if (body === undefined) throw new ProviderUnreachable(`${name} at ${url} did not respond like the ${name} API`);
  const total = Number.parseInt(response.headers.get('x-total') ?? '', 10);
  return { body, link: response.headers.get('link'), total: Number.isInteger(total) ? total : null };
}

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const asList = (value: unknown): Json[] => (Array.isArray(value) ? value.map(asObject) : []);
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const count = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null);

export async function fetchGitUser(account: ProviderAccount): Promise<GitUser> {
  const user = asObject((await getJson(account, '/user')).body);
  const login = text(account.provider === 'github' ? user.login : user.username);
  if (!login) throw new ProviderUnreachable(`${PROVIDER_NAMES[account.provider]} did not say who the token belongs to`);
  return {
    id: String(user.id ?? login),
    login,
    avatar_url: text(user.avatar_url) ?? '',
    company: text(account.provider === 'github' ? user.company : user.organization),
    name: text(user.name),
    email: text(user.email) ?? text(user.public_email),
  };
}

const GITHUB_SORTS = { pushed: 'pushed', updated: 'updated', created: 'created', full_name: 'full_name' } as const;
const GITLAB_ORDER = { pushed: 'last_activity_at', updated: 'updated_at', created: 'created_at', full_name: 'path' } as const;

const githubRepository = (repo: Json, link: string | null): Repository => ({
  id: String(repo.id),
  full_name: String(repo.full_name),
  git_provider: 'github',
  is_public: repo.private !== true,
  stargazers_count: count(repo.stargazers_count),
  link_header: link,
  pushed_at: text(repo.pushed_at),
  owner_type: asObject(repo.owner).type === 'Organization' ? 'organization' : 'user',
  main_branch: text(repo.default_branch),
});

const gitlabRepository = (project: Json, link: string | null): Repository => ({
  id: String(project.id),
  full_name: String(project.path_with_namespace),
  git_provider: 'gitlab',
  is_public: project.visibility === 'public',
  stargazers_count: count(project.star_count),
  link_header: link,
  pushed_at: text(project.last_activity_at),
  owner_type: asObject(project.namespace).kind === 'group' ? 'organization' : 'user',
  main_branch: text(project.default_branch),
});

export async function fetchRepositories(account: ProviderAccount, query: RepositoriesQuery): Promise<Repository[]> {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? 30;
  if (account.provider === 'github') {
    const { body, link } = await getJson(account, `/user/repos?sort=${GITHUB_SORTS[query.sort]}&page=${page}&per_page=${perPage}`);
    return asList(body).map((repo, index) => githubRepository(repo, index === 0 ? link : null));
  }
  const order = GITLAB_ORDER[query.sort];
  const { body, link } = await getJson(
    account,
    `/projects?membership=true&order_by=${order}&sort=${order === 'path' ? 'asc' : 'desc'}&page=${page}&per_page=${perPage}`,
  );
  return asList(body).map((project, index) => gitlabRepository(project, index === 0 ? link : null));
}

/** `owner/name` of a repository's web address on the provider (`https://github.com/owner/name`), when the query is one. */
const repositoryOfUrl = (query: string) => /^https?:\/\/[^/]+\/([\w.-]+(?:\/[\w.-]+)+?)(?:\.git)?\/?$/.exec(query.trim())?.[1];

/**
 * The user's repositories whose name has `query` in it, and their organisations' (GitHub) or
 * those of the groups they are in (GitLab); a repository's address finds that public repository,
 * `owner/part` searches that owner's. GitHub's order is `sort` and `order`, GitLab's the last activity.
 */
export async function searchRepositories(account: ProviderAccount, search: RepositorySearchQuery): Promise<Repository[]> {
  const { query, per_page: perPage } = search;
  const named = repositoryOfUrl(query);
  if (account.provider === 'gitlab') {
    if (named) return [gitlabRepository(asObject((await getJson(account, `/projects/${encodeURIComponent(named)}`)).body), null)];
    const { body } = await getJson(
      account,
      `/projects?membership=true&search=${encodeURIComponent(query)}&search_namespaces=true&order_by=last_activity_at&sort=desc&per_page=${perPage}`,
    );
    return asList(body).map((project) => gitlabRepository(project, null));
  }
  const searchFor = async (q: string) => {
    const { body } = await getJson(
      account,
      `/search/repositories?q=${encodeURIComponent(q)}&sort=${search.sort}&order=${search.order}&per_page=${perPage}`,
    );
    return asList(asObject(body).items);
  };
  let found: Json[];
  if (named) found = await searchFor(`in:name ${named} is:public`);
  else if (query.includes('/')) {
    const [owner, part] = [query.slice(0, query.indexOf('/')), query.slice(query.indexOf('/') + 1)];
    found = await searchFor(`org:${owner} in:name ${part}`);
  } else {
    const { login } = await fetchGitUser(account);
    const organisations = asList((await getJson(account, '/user/orgs?per_page=100')).body)
      .map((org) => text(org.login))
      .filter((org) => org !== null);
    // An organisation the token may not search (single sign-on not granted, a rate limit of its own) leaves out its repositories only.
    const ofOrganisation = (org: string) =>
      searchFor(`in:name ${query} org:${org}`).catch((error: unknown) => {
        if (error instanceof ProviderRefusedToken || error instanceof ProviderUnreachable) return [];
        throw error;
      });
    const lists = await Promise.all([searchFor(`in:name ${query} user:${login}`), ...organisations.map(ofOrganisation)]);
    found = lists.flat();
  }
  const unique = new Map(found.map((repo) => [String(repo.id), repo]));
  return [...unique.values()].slice(0, perPage).map((repo) => githubRepository(repo, null));
}

const githubBranch = (branch: Json): Branch => {
  const commit = asObject(branch.commit);
  return {
    name: String(branch.name),
    commit_sha: text(commit.sha) ?? '',
    protected: branch.protected === true,
    // Only where the provider includes the commit itself (GitHub's list gives its sha alone).
    last_push_date: text(asObject(asObject(commit.commit).committer).date),
  };
};

const gitlabBranch = (branch: Json): Branch => {
  const commit = asObject(branch.commit);
  return {
    name: String(branch.name),
    commit_sha: text(commit.id) ?? '',
    protected: branch.protected === true,
    last_push_date: text(commit.committed_date),
  };
};

const branchesPath = (account: ProviderAccount, repository: string) =>
  account.provider === 'github' ? `/repos/${repository}/branches` : `/projects/${encodeURIComponent(repository)}/repository/branches`;

/** A page of the repository's branches, in the provider's order. */
export async function fetchBranches(account: ProviderAccount, query: BranchesQuery): Promise<PaginatedBranches> {
  const { body, link, total } = await getJson(
    account,
    `${branchesPath(account, query.repository)}?page=${query.page}&per_page=${query.per_page}`,
  );
  return {
    branches: asList(body).map(account.provider === 'github' ? githubBranch : gitlabBranch),
    has_next_page: link?.includes('rel="next"') ?? false,
    current_page: query.page,
    per_page: query.per_page,
    total_count: account.provider === 'gitlab' ? total : null,
  };
}

/** How many pages of a hundred branches a GitHub branch search reads (its REST API has no search by name). */
const GITHUB_BRANCH_PAGES = 5;

/** The repository's branches whose name has `query` in it (any case), at most `per_page`. */
export async function searchBranches(account: ProviderAccount, search: BranchSearchQuery): Promise<Branch[]> {
  if (search.query === '') return [];
  const path = branchesPath(account, search.repository);
  if (account.provider === 'gitlab') {
    const { body } = await getJson(account, `${path}?search=${encodeURIComponent(search.query)}&per_page=${search.per_page}`);
    return asList(body).map(gitlabBranch);
  }
  const wanted = search.query.toLowerCase();
  const found: Branch[] = [];
  for (let page = 1; page <= GITHUB_BRANCH_PAGES && found.length < search.per_page; page++) {
    const { body, link } = await getJson(account, `${path}?page=${page}&per_page=100`);
    found.push(
      ...asList(body)
        .map(githubBranch)
        .filter((branch) => branch.name.toLowerCase().includes(wanted)),
    );
    if (!link?.includes('rel="next"')) break;
  }
  return found.slice(0, search.per_page);
}

/** `owner/name` from GitHub's `repository_url` (`…/repos/owner/name`). */
const githubRepoName = (url: unknown) => (typeof url === 'string' ? (/\/repos\/([^/]+\/[^/]+)$/.exec(url)?.[1] ?? null) : null);
/** `group/project` from GitLab's `references.full` (`group/project!12`, `group/project#3`). */
const gitlabRepoName = (references: unknown) => text(asObject(references).full)?.replace(/[!#]\d+$/, '') ?? null;

/** The user's open pull (merge) requests, then the open issues assigned to them. */
export async function fetchSuggestedTasks(account: ProviderAccount, login: string): Promise<SuggestedTask[]> {
  const tasks: SuggestedTask[] = [];
  const add = (task_type: SuggestedTask['task_type'], repo: string | null, number: unknown, title: unknown) => {
    if (repo && typeof number === 'number' && typeof title === 'string')
      tasks.push({ git_provider: account.provider, task_type, repo, issue_number: number, title });
  };
  if (account.provider === 'github') {
    for (const [kind, query] of [
      ['OPEN_PR', `is:open is:pr author:${login}`],
      ['OPEN_ISSUE', `is:open is:issue assignee:${login}`],
    ] as const) {
      const { body } = await getJson(account, `/search/issues?q=${encodeURIComponent(query)}&per_page=30`);
      for (const item of asList(asObject(body).items)) add(kind, githubRepoName(item.repository_url), item.number, item.title);
    }
    return tasks;
  }
  const mergeRequests = await getJson(account, '/merge_requests?state=opened&scope=created_by_me&per_page=30');
  for (const mr of asList(mergeRequests.body)) add('OPEN_PR', gitlabRepoName(mr.references), mr.iid, mr.title);
  const issues = await getJson(account, '/issues?state=opened&scope=assigned_to_me&per_page=30');
  for (const issue of asList(issues.body)) add('OPEN_ISSUE', gitlabRepoName(issue.references), issue.iid, issue.title);
  return tasks;
}
