import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeProviderApi {
  /** Base URL to use as a provider host, e.g. http://127.0.0.1:40123 */
  url: string;
  /** Path and query of each request it served. */
  requests: string[];
  /** From now on, responds to every request as a spent rate limit: GitHub's 403 with `x-ratelimit-remaining: 0`, or a 429. */
  rateLimit: (status: 403 | 429) => void;
  close: () => Promise<void>;
}

interface Reply {
  body: unknown;
  link?: string;
  headers?: Record<string, string>;
}
/** A fixed reply, or one made from the request's URL (its query: a page, a search). */
type Routes = Record<string, Reply | ((url: URL) => Reply)>;

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
    '/api/v3/search/issues': { body: { total_count: 0, items: [] } },
    '/api/v3/user/orgs': { body: [{ login: 'lovelace-org' }] },
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
  '/api/v4/merge_requests': { body: [{ iid: 5, title: 'Add compiler', references: { full: 'navy/cobol!5' } }] },
  '/api/v4/issues': { body: [{ iid: 3, title: 'Moth in relay', references: { full: 'navy/cobol#3' } }] },
  // GitLab pages with X-Total, and searches branches by a part of their name.
  '/api/v4/projects/navy%2Fcobol/repository/branches': (url) => {
    const search = url.searchParams.get('search');
    const matching = search === null ? GITLAB_BRANCHES : GITLAB_BRANCHES.filter((branch) => branch.name.includes(search));
    return { body: matching, headers: { 'x-total': String(matching.length) } };
  },
};

/**
 * A local HTTP server that plays the GitHub and GitLab REST APIs for one user each: it responds
 * for `goodToken` (as a bearer token), the provider's 401 for any other, and
 * `searchResults` for GitHub's issue search (by whether the query is about PRs).
 */
export async function startFakeProviderApi(
  goodToken: string,
  searchResults: { prs?: unknown[]; issues?: unknown[] } = {},
): Promise<FakeProviderApi> {
  const requests: string[] = [];
  let routes: Routes = {};
  let rateLimitStatus: 403 | 429 | undefined;
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    requests.push(url);
    const path = url.split('?')[0] ?? '/';
    const route = routes[path];
    if (rateLimitStatus)
      return res
        .writeHead(rateLimitStatus, { 'content-type': 'application/json', 'x-ratelimit-remaining': '0' })
        .end('{"message":"API rate limit exceeded"}');
    if (!route) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    if (req.headers.authorization !== `Bearer ${goodToken}`)
      return res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Bad credentials"}');
    const reply = typeof route === 'function' ? route(new URL(url, 'http://x')) : route;
    let body = reply.body;
    if (path === '/api/v3/search/issues') {
      const query = new URL(url, 'http://x').searchParams.get('q') ?? '';
      body = { items: (query.includes('is:pr') ? searchResults.prs : searchResults.issues) ?? [] };
    }
    res
      .writeHead(200, { 'content-type': 'application/json', ...(reply.link ? { link: reply.link } : {}), ...reply.headers })
      .end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  routes = { ...githubRoutes(base), ...gitlabRoutes };
  return {
    url: base,
    requests,
    rateLimit: (status) => {
      rateLimitStatus = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
