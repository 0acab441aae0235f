import type { GitUser, RepositoriesQuery, Repository, SuggestedTask } from '../../src/contract/git-user';
import { PROVIDER_NAMES } from '../../src/contract/secrets';
import { restApiBase } from './token-verifier';

/*
 * What OpenHands' web client asks the connected provider through `/api/user/*`: who the user
 * is, their repositories, and their open pull requests and issues. GitHub and GitLab only, over
 * their REST APIs (OpenHands uses GitHub's GraphQL for the same list).
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
  return { body, link: response.headers.get('link') };
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

export async function fetchRepositories(account: ProviderAccount, query: RepositoriesQuery): Promise<Repository[]> {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? 30;
  if (account.provider === 'github') {
    const { body, link } = await getJson(account, `/user/repos?sort=${GITHUB_SORTS[query.sort]}&page=${page}&per_page=${perPage}`);
    return asList(body).map((repo, index) => ({
      id: String(repo.id),
      full_name: String(repo.full_name),
      git_provider: 'github',
      is_public: repo.private !== true,
      stargazers_count: count(repo.stargazers_count),
      link_header: index === 0 ? link : null,
      pushed_at: text(repo.pushed_at),
      owner_type: asObject(repo.owner).type === 'Organization' ? 'organization' : 'user',
      main_branch: text(repo.default_branch),
    }));
  }
  const order = GITLAB_ORDER[query.sort];
  const { body, link } = await getJson(
    account,
    `/projects?membership=true&order_by=${order}&sort=${order === 'path' ? 'asc' : 'desc'}&page=${page}&per_page=${perPage}`,
  );
  return asList(body).map((project, index) => ({
    id: String(project.id),
    full_name: String(project.path_with_namespace),
    git_provider: 'gitlab',
    is_public: project.visibility === 'public',
    stargazers_count: count(project.star_count),
    link_header: index === 0 ? link : null,
    pushed_at: text(project.last_activity_at),
    owner_type: asObject(project.namespace).kind === 'group' ? 'organization' : 'user',
    main_branch: text(project.default_branch),
  }));
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
