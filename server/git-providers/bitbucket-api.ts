import type { Branch, GitUserApi, Repository } from './git-user-schemas';
import { asList, asObject, count, getJson, type Json, type ProviderAccount, ProviderUnreachable, text } from './provider-http';
import { restApiBase } from './token-verifier';

/*
 * What OpenHands' web client asks Bitbucket Cloud through `/api/user/*` (its Bitbucket service at
 * the pinned commit): the user, their workspaces (its "installations", by which its picker lists
 * repositories), a workspace's repositories, a repository's branches. Its workspace list is read
 * from `/user/workspaces`: Bitbucket has retired the `/workspaces` OpenHands still asks.
 */

type Bitbucket = ProviderAccount<'bitbucket'>;

/** How many workspaces a repository search looks into at most, a request each. */
const MAX_WORKSPACES = 20;

/** Bitbucket's paged list: its `values`, and the address of the next page when there is one. */
const values = (body: unknown) => asList(asObject(body).values);
const repositoryPath = (name: string) => `/repositories/${name.split('/').map(encodeURIComponent).join('/')}`;
/** A workspace's or repository's slug, never `.` or `..` (which would lead elsewhere on the API). */
const isSlug = (part: string | undefined): part is string => part !== undefined && /^[\w.-]+$/.test(part) && !/^\.{1,2}$/.test(part);
/** A BBQL string: its quotes and backslashes escaped. */
const bbqlString = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

const SORTS = { pushed: '-updated_on', updated: '-updated_on', created: '-created_on', full_name: 'name' } as const;

async function fetchUser(account: Bitbucket) {
  const user = asObject((await getJson(account, '/user')).body);
  const login = text(user.username) ?? text(user.nickname);
  if (!login) throw new ProviderUnreachable('Bitbucket did not say who the token belongs to');
  return {
    id: text(user.account_id) ?? login,
    login,
    avatar_url: text(asObject(asObject(user.links).avatar).href) ?? '',
    company: null,
    name: text(user.display_name),
    // Bitbucket's user has no email.
    email: null,
  };
}

/** The slugs of the user's workspaces, which OpenHands' client lists repositories by. */
async function fetchWorkspaces(account: Bitbucket) {
  return values((await getJson(account, '/user/workspaces?pagelen=100')).body).flatMap(
    (membership) => text(asObject(membership.workspace).slug) ?? [],
  );
}

const bitbucketRepository = (repo: Json, link: string | null): Repository => {
  const workspace = text(asObject(repo.workspace).slug);
  const slug = text(repo.slug);
  return {
    id: text(repo.uuid) ?? String(repo.full_name),
    full_name: workspace && slug ? `${workspace}/${slug}` : String(repo.full_name),
    git_provider: 'bitbucket',
    is_public: repo.is_private === false,
    stargazers_count: null,
    link_header: link,
    pushed_at: text(repo.updated_on),
    owner_type: 'organization',
    main_branch: text(asObject(repo.mainbranch).name),
  };
};

/** A page of a workspace's repositories (with a name that has `name` in it); the next page's address, as a `Link`, on the first. */
async function workspaceRepositories(
  account: Bitbucket,
  workspace: string,
  page: number,
  perPage: number,
  sort: string,
  name?: string,
): Promise<Repository[]> {
  const path = `/repositories/${encodeURIComponent(workspace)}`;
  const search = name === undefined ? '' : `&q=${encodeURIComponent(`name~${bbqlString(name)}`)}`;
  const { body } = await getJson(account, `${path}?pagelen=${perPage}&page=${page}&sort=${sort}${search}`);
  // OpenHands' client reads the next page's number from a Link header; Bitbucket says it in `next`.
  const nextPage = /[?&]page=(\d+)/.exec(text(asObject(body).next) ?? '')?.[1];
  const link = nextPage ? `<${restApiBase('bitbucket', account.host)}${path}?page=${nextPage}>; rel="next"` : null;
  return values(body).map((repo, index) => bitbucketRepository(repo, index === 0 ? link : null));
}

/** A page of the repositories of the workspace `installation_id` names; none without one, as from OpenHands. */
const fetchRepositories: GitUserApi<'bitbucket'>['repositories'] = async (account, query) => {
  if (!isSlug(query.installation_id)) return [];
  return workspaceRepositories(account, query.installation_id, query.page ?? 1, query.per_page ?? 30, SORTS[query.sort]);
};

/**
 * Repositories by `query`: a repository's address finds it; `workspace/part` searches that
 * workspace by name; else the repositories of the workspaces whose slug has the query in it, then
 * those of every workspace whose name has it.
 */
const searchRepositories: GitUserApi<'bitbucket'>['searchRepositories'] = async (account, search, named) => {
  const perPage = search.per_page;
  if (named) {
    const [workspace, slug] = named.split('/');
    if (!isSlug(workspace) || !isSlug(slug)) return [];
    return [bitbucketRepository(asObject((await getJson(account, repositoryPath(`${workspace}/${slug}`))).body), null)];
  }
  const slash = search.query.indexOf('/');
  if (slash > 0) {
    const workspace = search.query.slice(0, slash);
    return isSlug(workspace) ? workspaceRepositories(account, workspace, 1, perPage, SORTS.updated, search.query.slice(slash + 1)) : [];
  }
  const workspaces = (await fetchWorkspaces(account)).slice(0, MAX_WORKSPACES);
  const lists = await Promise.all([
    ...workspaces.filter((w) => w.includes(search.query)).map((w) => workspaceRepositories(account, w, 1, perPage, SORTS.updated)),
    ...workspaces.map((w) => workspaceRepositories(account, w, 1, perPage, SORTS.updated, search.query)),
  ]);
  const unique = new Map(lists.flat().map((repo) => [repo.id, repo]));
  return [...unique.values()].slice(0, perPage);
};

const bitbucketBranch = (branch: Json): Branch => {
  const target = asObject(branch.target);
  return {
    name: String(branch.name),
    commit_sha: text(target.hash) ?? '',
    // Bitbucket's branch says nothing of its restrictions.
    protected: false,
    last_push_date: text(target.date),
  };
};

const branchesPath = (repository: string) => `${repositoryPath(repository)}/refs/branches`;

/** A page of the repository's branches, the newest commit first, with Bitbucket's count of them all. */
const fetchBranches: GitUserApi<'bitbucket'>['branches'] = async (account, query) => {
  const { body } = await getJson(
    account,
    `${branchesPath(query.repository)}?pagelen=${query.per_page}&page=${query.page}&sort=-target.date`,
  );
  return {
    branches: values(body).map(bitbucketBranch),
    has_next_page: text(asObject(body).next) !== null,
    current_page: query.page,
    per_page: query.per_page,
    total_count: count(asObject(body).size),
  };
};

/** The repository's branches whose name has `query` in it (Bitbucket's `~` is any case). */
const searchBranches: GitUserApi<'bitbucket'>['searchBranches'] = async (account, search) => {
  const q = encodeURIComponent(`name~${bbqlString(search.query)}`);
  const { body } = await getJson(account, `${branchesPath(search.repository)}?pagelen=${search.per_page}&q=${q}&sort=-target.date`);
  return values(body).map(bitbucketBranch);
};

export const bitbucketApi: GitUserApi<'bitbucket'> = {
  user: fetchUser,
  installations: fetchWorkspaces,
  repositories: fetchRepositories,
  searchRepositories,
  branches: fetchBranches,
  searchBranches,
};
