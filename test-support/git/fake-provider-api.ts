import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dumbHttpFiles, type RepoFiles } from './dumb-http-repo';
import { bitbucketRoutes, githubIssueRoutes, gitlabIssueRoutes, graphqlRoute } from './fake-provider-tasks';

export interface FakeProviderApi {
  /** Base URL to use as a provider host, e.g. http://127.0.0.1:40123 */
  url: string;
  /** Path and query of each request it served. */
  requests: string[];
  /** From now on, responds to every request as a spent rate limit: GitHub's 403 with `x-ratelimit-remaining: 0`, or a 429. */
  rateLimit: (status: 403 | 429) => void;
  close: () => Promise<void>;
}

export interface Reply {
  body: unknown;
  /** 200 unless said. */
  status?: number;
  link?: string;
  headers?: Record<string, string>;
}
/** A fixed reply, or one made from the request (its query: a page, a search; its JSON body; its method). */
export type Routes = Record<string, Reply | ((url: URL, body: unknown, method: string) => Reply)>;

const githubBranch = (name: string, sha: string, isProtected = false) => ({
  name,
  commit: { sha, url: `https://api.example/commits/${sha}` },
  protected: isProtected,
});
const gitlabBranch = (name: string, id: string) => ({
  name,
  commit: { id, committed_date: '2025-11-21T09:00:00Z' },
  protected: name === 'master',
});
const GITLAB_BRANCHES = [gitlabBranch('master', 'c0b01'), gitlabBranch('fix-relay', 'c0b02'), gitlabBranch('moth-log', 'c0b03')];

/** What GitHub's REST API (under /api/v3, as on GitHub Enterprise) returns for user "ada". */
function githubRoutes(base: string): Routes {
  return {
    '/api/v3/user': {
      body: { id: 42, login: 'ada', avatar_url: 'https://avatars.example/ada.png', company: 'Analytical', name: 'Ada L', email: null },
    },
    '/api/v3/user/repos': {
      body: [
        {
          id: 7,
          full_name: 'ada/engine',
          private: false,
          stargazers_count: 3,
          pushed_at: '2025-11-20T10:00:00Z',
          owner: { type: 'User' },
          default_branch: 'main',
        },
        { id: 8, full_name: 'lovelace-org/notes', private: true, stargazers_count: 0, pushed_at: null, owner: { type: 'Organization' } },
      ],
      link: `<${base}/api/v3/user/repos?page=2&per_page=30>; rel="next"`,
    },
    '/api/v3/user/orgs': { body: [{ login: 'lovelace-org' }] },
    // The GitHub App installations the token may use (a user-to-server token's), and one's repositories.
    '/api/v3/user/installations': { body: { total_count: 1, installations: [{ id: 314, account: { login: 'lovelace-org' } }] } },
    '/api/v3/user/installations/314/repositories': {
      body: {
        total_count: 1,
        repositories: [
          { id: 8, full_name: 'lovelace-org/notes', private: true, stargazers_count: 0, pushed_at: null, owner: { type: 'Organization' } },
        ],
      },
    },
    // Repositories by name, among ada's (`user:ada`) or an organisation's (`org:lovelace-org`).
    '/api/v3/search/repositories': (url) => {
      const q = url.searchParams.get('q') ?? '';
      const repositories = [
        { id: 7, full_name: 'ada/engine', owner: 'user:ada', private: false, owner_type: 'User' },
        { id: 8, full_name: 'lovelace-org/notes', owner: 'org:lovelace-org', private: true, owner_type: 'Organization' },
      ];
      const term = /in:name (\S+)/.exec(q)?.[1] ?? '';
      const items = repositories
        .filter((repo) => q.includes(repo.owner) && repo.full_name.split('/')[1]!.includes(term))
        .map((repo) => ({
          id: repo.id,
          full_name: repo.full_name,
          private: repo.private,
          stargazers_count: 1,
          owner: { type: repo.owner_type },
        }));
      return { body: { total_count: items.length, items } };
    },
    // Two pages of branches, as GitHub pages them (a Link to the next one).
    '/api/v3/repos/ada/engine/branches': (url) =>
      url.searchParams.get('page') === '2'
        ? { body: [githubBranch('fix-bearings', 'e3')] }
        : {
            body: [githubBranch('main', 'e1', true), githubBranch('feature/fast-engine', 'e2')],
            link: `<${base}/api/v3/repos/ada/engine/branches?page=2&per_page=2>; rel="next"`,
          },
  };
}

/** What GitLab's REST API returns for user "grace". */
const gitlabRoutes: Routes = {
  '/api/v4/user': {
    body: { id: 9, username: 'grace', avatar_url: 'https://gitlab.example/grace.png', name: 'Grace H', organization: null },
  },
  '/api/v4/projects': {
    body: [
      {
        id: 11,
        path_with_namespace: 'navy/cobol',
        visibility: 'private',
        star_count: 1,
        last_activity_at: '2025-11-21T09:00:00Z',
        namespace: { kind: 'group' },
        default_branch: 'master',
      },
    ],
  },
  // GitLab pages with X-Total, and searches branches by a part of their name.
  '/api/v4/projects/navy%2Fcobol/repository/branches': (url) => {
    const search = url.searchParams.get('search');
    const matching = search === null ? GITLAB_BRANCHES : GITLAB_BRANCHES.filter((branch) => branch.name.includes(search));
    return { body: matching, headers: { 'x-total': String(matching.length) } };
  },
};

export interface FakeProviderOptions {
  /** Repositories served over git's dumb HTTP protocol at `/<owner>/<name>.git`, as a provider serves clones beside its API. */
  repos?: Record<string, RepoFiles>;
}

/**
 * A local HTTP server that plays GitHub (REST under /api/v3 and GraphQL, as GitHub Enterprise
 * serves them), GitLab (REST and GraphQL) and Bitbucket Cloud (REST 2.0) for one user each:
 * ada, grace and alan. It responds for `goodToken` (as a bearer token), the provider's 401 for any
 * other. Their pull requests and issues are in `fake-provider-tasks.ts`.
 */
export async function startFakeProviderApi(goodToken: string, options: FakeProviderOptions = {}): Promise<FakeProviderApi> {
  const requests: string[] = [];
  let routes: Routes = {};
  let rateLimitStatus: 403 | 429 | undefined;
  const files = options.repos && dumbHttpFiles(options.repos, goodToken);
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    requests.push(url);
    const path = url.split('?')[0] ?? '/';
    if (files && /^\/[^/]+\/[^/]+\.git\//.test(path)) return files.handle(req, res);
    const route = routes[path];
    if (rateLimitStatus)
      return res
        .writeHead(rateLimitStatus, { 'content-type': 'application/json', 'x-ratelimit-remaining': '0' })
        .end('{"message":"API rate limit exceeded"}');
    if (!route) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    if (req.headers.authorization !== `Bearer ${goodToken}`)
      return res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Bad credentials"}');
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        return res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"Problems parsing JSON"}');
      }
      const reply = typeof route === 'function' ? route(new URL(url, 'http://x'), body, req.method ?? 'GET') : route;
      res
        .writeHead(reply.status ?? 200, {
          'content-type': 'application/json',
          ...(reply.link ? { link: reply.link } : {}),
          ...reply.headers,
        })
        .end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  routes = {
    ...githubRoutes(base),
    ...githubIssueRoutes(base),
    ...gitlabRoutes,
    ...gitlabIssueRoutes(base),
    ...bitbucketRoutes(base),
    '/api/graphql': graphqlRoute(base),
  };
  return {
    url: base,
    requests,
    rateLimit: (status) => {
      rateLimitStatus = status;
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      files?.remove();
    },
  };
}
