import * as z from 'zod/mini';
import { integer } from '../../src/contract/rules';
import { providerSchema } from '../../src/contract/secrets';
import type { ApiProvider, ProviderAccount } from './provider-http';

/*
 * `/api/user/*`: what the connected git provider says about its user, as OpenHands returns it
 * (`openhands/integrations/service_types.py` at the pinned commit). Its web client reads these.
 */

export const gitUserSchema = z.object({
  id: z.string(),
  login: z.string(),
  avatar_url: z.string(),
  company: z.nullable(z.string()),
  name: z.nullable(z.string()),
  email: z.nullable(z.string()),
});
export type GitUser = z.output<typeof gitUserSchema>;

export const repositorySchema = z.object({
  id: z.string(),
  full_name: z.string(),
  git_provider: providerSchema,
  is_public: z.boolean(),
  stargazers_count: z.nullable(integer()),
  /** The provider's `Link` header of the page, on its first item: the client reads the next page from it. */
  link_header: z.nullable(z.string()),
  pushed_at: z.nullable(z.string()),
  owner_type: z.nullable(z.enum(['user', 'organization'])),
  main_branch: z.nullable(z.string()),
});
export type Repository = z.output<typeof repositorySchema>;

const pageNumber = z.optional(z.coerce.number().check(z.multipleOf(1), z.gte(1), z.lte(1000)));

/** `GET /api/user/repositories?selected_provider=github&sort=pushed&page=1&per_page=30`. */
export const repositoriesQuerySchema = z.object({
  selected_provider: z.optional(providerSchema),
  sort: z._default(z.enum(['pushed', 'updated', 'created', 'full_name']), 'pushed'),
  page: pageNumber,
  per_page: z.optional(z.coerce.number().check(z.multipleOf(1), z.gte(1), z.lte(100))),
  installation_id: z.optional(z.string()),
});
export type RepositoriesQuery = z.output<typeof repositoriesQuerySchema>;

export const branchSchema = z.object({
  name: z.string(),
  commit_sha: z.string(),
  protected: z.boolean(),
  /** When its last commit was committed (ISO 8601), where the provider says. */
  last_push_date: z.nullable(z.string()),
});
export type Branch = z.output<typeof branchSchema>;

export const paginatedBranchesSchema = z.object({
  branches: z.array(branchSchema),
  has_next_page: z.boolean(),
  current_page: integer(),
  per_page: integer(),
  /** GitLab's count of them all; GitHub gives none. */
  total_count: z.nullable(integer()),
});
export type PaginatedBranches = z.output<typeof paginatedBranchesSchema>;

const perPage = (fallback: number) => z._default(z.coerce.number().check(z.multipleOf(1), z.gte(1), z.lte(100)), fallback);
/** `owner/name` (GitHub) or `group/…/project` (GitLab); no part `.` or `..`, which would lead elsewhere on the provider. */
const repositoryName = z.string().check(
  z.regex(/^[\w.-]+(\/[\w.-]+)+$/, 'Expected a repository as owner/name'),
  z.refine((name) => !name.split('/').some((part) => /^\.{1,2}$/.test(part)), 'Expected a repository as owner/name'),
);

/** `GET /api/user/repository/branches?repository=owner/name&page=1&per_page=30`. */
export const branchesQuerySchema = z.object({
  repository: repositoryName,
  selected_provider: z.optional(providerSchema),
  page: z._default(z.coerce.number().check(z.multipleOf(1), z.gte(1), z.lte(1000)), 1),
  per_page: perPage(30),
});
export type BranchesQuery = z.output<typeof branchesQuerySchema>;

/** `GET /api/user/search/branches?repository=owner/name&query=fix&per_page=30`. */
export const branchSearchQuerySchema = z.object({
  repository: repositoryName,
  query: z.string().check(z.maxLength(200)),
  selected_provider: z.optional(providerSchema),
  per_page: perPage(30),
});
export type BranchSearchQuery = z.output<typeof branchSearchQuerySchema>;

/** `GET /api/user/search/repositories?query=engine&per_page=5`: by name among the user's own and their organisations'. */
export const repositorySearchQuerySchema = z.object({
  query: z.string().check(z.minLength(1), z.maxLength(200)),
  selected_provider: z.optional(providerSchema),
  per_page: perPage(5),
  sort: z._default(z.enum(['stars', 'updated', 'forks']), 'stars'),
  order: z._default(z.enum(['asc', 'desc']), 'desc'),
});
export type RepositorySearchQuery = z.output<typeof repositorySearchQuerySchema>;

/** `GET /api/user/installations?provider=bitbucket`. */
export const installationsQuerySchema = z.object({ provider: providerSchema });

/**
 * What `/api/user/*` asks one provider's API with an account of `P`: who the user is, their
 * installations (Bitbucket's workspaces), repositories listed and searched, a repository's branches.
 */
export interface GitUserApi<P extends ApiProvider> {
  user(account: ProviderAccount<P>): Promise<GitUser>;
  installations(account: ProviderAccount<P>): Promise<string[]>;
  repositories(account: ProviderAccount<P>, query: RepositoriesQuery): Promise<Repository[]>;
  /** `named`: the repository the query names by its address, when it does. */
  searchRepositories(account: ProviderAccount<P>, search: RepositorySearchQuery, named?: string): Promise<Repository[]>;
  branches(account: ProviderAccount<P>, query: BranchesQuery): Promise<PaginatedBranches>;
  searchBranches(account: ProviderAccount<P>, search: BranchSearchQuery): Promise<Branch[]>;
}
