import type {
  Branch,
  BranchesQuery,
  BranchSearchQuery,
  GitUser,
  PaginatedBranches,
  RepositoriesQuery,
  Repository,
  RepositorySearchQuery,
} from './git-user-schemas';
import { PROVIDER_NAMES } from '../../src/contract/secrets';
import {
  asList,
  asObject,
  count,
  getJson,
  type Json,
  type ProviderAccount,
  ProviderRefusedToken,
  ProviderUnreachable,
  text,
} from './provider-http';
import { bitbucketApi } from './bitbucket-api';

/*
 * What OpenHands' web client asks the connected provider through `/api/user/*`: who the user
 * is, their repositories (listed and searched) and a repository's branches, over the REST APIs
 * of GitHub and GitLab here, of Bitbucket in `bitbucket-api.ts` (OpenHands uses GitHub's GraphQL
 * for the branch search). The suggested tasks are in `suggested-tasks.ts`.
 */

const isBitbucket = (account: ProviderAccount): account is ProviderAccount<'bitbucket'> => account.provider === 'bitbucket';

export async function fetchGitUser(account: ProviderAccount): Promise<GitUser> {
  if (isBitbucket(account)) return bitbucketApi.user(account);
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

/**
 * Where OpenHands' client lists repositories installation by installation: the ids of the GitHub
 * App installations the token may use (none for a token of a user's own), or the user's Bitbucket
 * workspaces.
 */
export async function fetchInstallations(account: ProviderAccount<'github' | 'bitbucket'>): Promise<string[]> {
  if (isBitbucket(account)) return bitbucketApi.installations(account);
  const installations = asList(asObject((await getJson(account, '/user/installations?per_page=100')).body).installations);
  return installations.flatMap((installation) => (installation.id === undefined ? [] : [String(installation.id)]));
}

export async function fetchRepositories(account: ProviderAccount, query: RepositoriesQuery): Promise<Repository[]> {
  if (isBitbucket(account)) return bitbucketApi.repositories(account, query);
  const page = query.page ?? 1;
  const perPage = query.per_page ?? 30;
  if (account.provider === 'github' && query.installation_id) {
    // One installation's repositories, as OpenHands lists them in its SaaS mode.
    const { body, link } = await getJson(
      account,
      `/user/installations/${encodeURIComponent(query.installation_id)}/repositories?page=${page}&per_page=${perPage}`,
    );
    return asList(asObject(body).repositories).map((repo, index) => githubRepository(repo, index === 0 ? link : null));
  }
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
  if (isBitbucket(account)) return bitbucketApi.searchRepositories(account, search, named);
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
  if (isBitbucket(account)) return bitbucketApi.branches(account, query);
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
  if (isBitbucket(account)) return bitbucketApi.searchBranches(account, search);
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
