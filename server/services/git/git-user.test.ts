import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeProviderApi, startFakeProviderApi } from '../../../test-support/git/fake-provider-api';
import { startTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let api: FakeProviderApi | undefined;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => {
  await t.close();
  await api?.close();
  api = undefined;
});

const get = (url: string) => t.request({ method: 'GET', url });
const connect = (provider: string, token: string, host: string) =>
  t.request({
    method: 'POST',
    url: '/api/add-git-providers',
    payload: JSON.stringify({ provider_tokens: { [provider]: { token, host } } }),
    headers: { 'content-type': 'application/json' },
  });

describe('/api/user/* without a token', () => {
  it('returns 404 with a sentence for the user, and empty lists', async () => {
    const info = await get('/api/user/info');
    expect(info.statusCode).toBe(404);
    expect(info.json()).toEqual({ detail: 'No GitHub, GitLab or Bitbucket token is connected: add one under Settings → Git' });
    expect((await get('/api/user/repositories?selected_provider=github&sort=pushed&page=1&per_page=30')).json()).toEqual([]);
    expect((await get('/api/user/suggested-tasks')).json()).toEqual([]);
    expect((await get('/api/user/search/repositories?query=engine')).json()).toEqual([]);
    // OpenHands' client asks for Bitbucket's workspaces before its repositories: none, not a 404.
    expect((await get('/api/user/installations?provider=bitbucket')).json()).toEqual([]);
    expect((await get('/api/user/installations?provider=github')).json()).toEqual([]);
    expect((await get('/api/user/installations?provider=nowhere')).statusCode).toBe(422);
    // OpenHands refuses the question for GitLab, which has no installations.
    const gitlab = await get('/api/user/installations?provider=gitlab');
    expect(gitlab.statusCode).toBe(422);
    expect(gitlab.json().detail).toMatchObject([
      { loc: ['query', 'provider'], msg: 'Value error, GitLab has no installations: ask for github or bitbucket' },
    ]);
    expect((await get('/api/user/search/branches?repository=ada/engine&query=main')).json()).toEqual([]);
    expect((await get('/api/user/repository/branches?repository=ada/engine&page=2&per_page=10')).json()).toEqual({
      branches: [],
      has_next_page: false,
      current_page: 2,
      per_page: 10,
      total_count: 0,
    });
  });

  it('needs the session key like every /api route', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/user/info' })).statusCode).toBe(401);
  });
});

describe('/api/user/* with a GitHub token', () => {
  beforeEach(async () => {
    api = await startFakeProviderApi('ghp_good');
    expect((await connect('github', 'ghp_good', api.url)).statusCode).toBe(200);
  });

  it("returns the provider's login and avatar, never the token", async () => {
    const info = await get('/api/user/info');
    expect(info.statusCode).toBe(200);
    expect(info.json()).toEqual({
      id: '42',
      login: 'ada',
      avatar_url: 'https://avatars.example/ada.png',
      company: 'Analytical',
      name: 'Ada L',
      email: null,
    });
    expect(info.body).not.toContain('ghp_good');
  });

  it('lists repositories as OpenHands does, the Link header on the first for the next page', async () => {
    const response = await get('/api/user/repositories?selected_provider=github&sort=pushed&page=1&per_page=30');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      {
        id: '7',
        full_name: 'ada/engine',
        git_provider: 'github',
        is_public: true,
        stargazers_count: 3,
        link_header: `<${api!.url}/api/v3/user/repos?page=2&per_page=30>; rel="next"`,
        pushed_at: '2025-11-20T10:00:00Z',
        owner_type: 'user',
        main_branch: 'main',
      },
      {
        id: '8',
        full_name: 'lovelace-org/notes',
        git_provider: 'github',
        is_public: false,
        stargazers_count: 0,
        link_header: null,
        pushed_at: null,
        owner_type: 'organization',
        main_branch: null,
      },
    ]);
    expect(api!.requests).toContain('/api/v3/user/repos?sort=pushed&page=1&per_page=30');
  });

  it("pages a repository's branches as OpenHands does, and searches them by a part of their name", async () => {
    const first = await get('/api/user/repository/branches?repository=ada%2Fengine&page=1&per_page=2');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      branches: [
        { name: 'main', commit_sha: 'e1', protected: true, last_push_date: null },
        { name: 'feature/fast-engine', commit_sha: 'e2', protected: false, last_push_date: null },
      ],
      has_next_page: true,
      current_page: 1,
      per_page: 2,
      total_count: null,
    });
    expect(api!.requests).toContain('/api/v3/repos/ada/engine/branches?page=1&per_page=2');
    const last = (await get('/api/user/repository/branches?repository=ada/engine&page=2&per_page=2')).json();
    expect(last).toMatchObject({ branches: [{ name: 'fix-bearings' }], has_next_page: false, current_page: 2 });
    // A search reads the pages GitHub has (its REST API has no search by name), any case.
    const search = (query: string) => get(`/api/user/search/branches?repository=ada/engine&query=${query}&selected_provider=github`);
    expect((await (await search('FAST')).json()).map((branch: { name: string }) => branch.name)).toEqual(['feature/fast-engine']);
    expect((await (await search('bear')).json()).map((branch: { name: string }) => branch.name)).toEqual(['fix-bearings']);
    expect((await search('nothing-like-it')).json()).toEqual([]);
    for (const bad of [
      '/api/user/repository/branches?repository=engine',
      '/api/user/repository/branches?repository=ada/../../user',
      '/api/user/repository/branches?repository=ada%2F%2e%2e%2Fx',
      '/api/user/search/branches?repository=ada/engine&per_page=500&query=x',
    ]) {
      const refused = await get(bad);
      expect(refused.statusCode, bad).toBe(422);
    }
  });

  it("finds repositories by name among the user's own and their organisations', by owner, or by address", async () => {
    const names = async (query: string) =>
      (
        (await get(`/api/user/search/repositories?query=${encodeURIComponent(query)}&per_page=100&selected_provider=github`)).json() as {
          full_name: string;
        }[]
      ).map((repo) => repo.full_name);
    expect(await names('eng')).toEqual(['ada/engine']);
    expect(api!.requests).toContain(
      `/api/v3/search/repositories?q=${encodeURIComponent('in:name eng user:ada')}&sort=stars&order=desc&per_page=100`,
    );
    // An organisation the user is in is searched too.
    expect(await names('not')).toEqual(['lovelace-org/notes']);
    expect(api!.requests).toContain(
      `/api/v3/search/repositories?q=${encodeURIComponent('in:name not org:lovelace-org')}&sort=stars&order=desc&per_page=100`,
    );
    expect(await names('lovelace-org/no')).toEqual(['lovelace-org/notes']);
    expect((await get('/api/user/search/repositories?query=')).statusCode).toBe(422);
  });

  it("lists the GitHub App installations the token may use, and one installation's repositories", async () => {
    expect((await get('/api/user/installations?provider=github')).json()).toEqual(['314']);
    // No Bitbucket token: no workspaces, and GitHub is not asked for them.
    expect((await get('/api/user/installations?provider=bitbucket')).json()).toEqual([]);
    const repositories = await get('/api/user/repositories?selected_provider=github&sort=pushed&page=1&per_page=30&installation_id=314');
    expect(repositories.json()).toMatchObject([{ id: '8', full_name: 'lovelace-org/notes', git_provider: 'github' }]);
    expect(api!.requests).toContain('/api/v3/user/installations/314/repositories?page=1&per_page=30');
  });

  it('returns 409 saying to connect a new token when the provider refuses it', async () => {
    expect((await connect('github', 'ghp_revoked', api!.url)).statusCode).toBe(200);
    for (const url of ['/api/user/info', '/api/user/repositories', '/api/user/suggested-tasks']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(409);
      expect(response.json().detail).toBe('GitHub refused the stored token (HTTP 401): connect a new one under Settings → Git');
    }
  });

  it.each([403, 429] as const)('takes a spent rate limit (HTTP %i) for a provider out of reach, not a refused token', async (status) => {
    api!.rateLimit(status);
    const info = await get('/api/user/info');
    expect(info.statusCode).toBe(503);
    expect(info.json().detail).toBe(`GitHub is rate limiting requests with the stored token (HTTP ${status}): try again later`);
    for (const url of ['/api/user/repositories', '/api/user/suggested-tasks']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.json(), url).toEqual([]);
    }
  });
});

describe('/api/user/* with a GitLab token', () => {
  it("reads the user and projects from GitLab's API", async () => {
    api = await startFakeProviderApi('glpat-good');
    expect((await connect('gitlab', 'glpat-good', api.url)).statusCode).toBe(200);
    expect((await get('/api/user/info')).json()).toEqual({
      id: '9',
      login: 'grace',
      avatar_url: 'https://gitlab.example/grace.png',
      company: null,
      name: 'Grace H',
      email: null,
    });
    expect((await get('/api/user/repositories?selected_provider=gitlab')).json()).toEqual([
      {
        id: '11',
        full_name: 'navy/cobol',
        git_provider: 'gitlab',
        is_public: false,
        stargazers_count: 1,
        link_header: null,
        pushed_at: '2025-11-21T09:00:00Z',
        owner_type: 'organization',
        main_branch: 'master',
      },
    ]);
    // No GitHub token: its repositories are an empty list, not GitLab's.
    expect((await get('/api/user/repositories?selected_provider=github')).json()).toEqual([]);
  });

  it("pages a project's branches with GitLab's count, and searches them with GitLab's search", async () => {
    api = await startFakeProviderApi('glpat-good');
    expect((await connect('gitlab', 'glpat-good', api.url)).statusCode).toBe(200);
    expect((await get('/api/user/repository/branches?repository=navy/cobol&selected_provider=gitlab')).json()).toEqual({
      branches: [
        { name: 'master', commit_sha: 'c0b01', protected: true, last_push_date: '2025-11-21T09:00:00Z' },
        { name: 'fix-relay', commit_sha: 'c0b02', protected: false, last_push_date: '2025-11-21T09:00:00Z' },
        { name: 'moth-log', commit_sha: 'c0b03', protected: false, last_push_date: '2025-11-21T09:00:00Z' },
      ],
      has_next_page: false,
      current_page: 1,
      per_page: 30,
      total_count: 3,
    });
    expect(api.requests).toContain('/api/v4/projects/navy%2Fcobol/repository/branches?page=1&per_page=30');
    const found = (await get('/api/user/search/branches?repository=navy/cobol&query=relay')).json();
    expect(found).toEqual([{ name: 'fix-relay', commit_sha: 'c0b02', protected: false, last_push_date: '2025-11-21T09:00:00Z' }]);
    expect((await get('/api/user/search/repositories?query=cob')).json()).toMatchObject([
      { full_name: 'navy/cobol', git_provider: 'gitlab' },
    ]);
    expect(api.requests).toContain(
      '/api/v4/projects?membership=true&search=cob&search_namespaces=true&order_by=last_activity_at&sort=desc&per_page=5',
    );
  });
});

describe('/api/user/* with a Bitbucket token', () => {
  beforeEach(async () => {
    api = await startFakeProviderApi('bb-good');
    expect((await connect('bitbucket', 'bb-good', api.url)).statusCode).toBe(200);
  });

  it('reads the user, and lists repositories workspace by workspace as OpenHands does', async () => {
    expect((await get('/api/user/info')).json()).toEqual({
      id: '5f00:alan',
      login: 'alan-turing',
      avatar_url: 'https://bitbucket.example/alan.png',
      company: null,
      name: 'Alan T',
      email: null,
    });
    // OpenHands' client asks for the workspaces, then each one's repositories, page by page.
    expect((await get('/api/user/installations?provider=bitbucket')).json()).toEqual(['turing']);
    const first = await get('/api/user/repositories?selected_provider=bitbucket&sort=pushed&page=1&per_page=2&installation_id=turing');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual([
      {
        id: '{bombe-0000-4000-8000-000000000000}',
        full_name: 'turing/bombe',
        git_provider: 'bitbucket',
        is_public: false,
        stargazers_count: null,
        link_header: `<${api!.url}/2.0/repositories/turing?page=2>; rel="next"`,
        pushed_at: '2025-11-22T08:00:00+00:00',
        owner_type: 'organization',
        main_branch: 'main',
      },
      expect.objectContaining({ full_name: 'turing/enigma', is_public: true, link_header: null, main_branch: 'trunk' }),
    ]);
    expect(api!.requests).toContain('/2.0/repositories/turing?pagelen=2&page=1&sort=-updated_on');
    const second = await get('/api/user/repositories?selected_provider=bitbucket&sort=pushed&page=2&per_page=2&installation_id=turing');
    expect(second.json()).toMatchObject([{ full_name: 'turing/colossus', link_header: null }]);
    // Without a workspace, none (as from OpenHands, whose client always names one).
    expect((await get('/api/user/repositories?selected_provider=bitbucket')).json()).toEqual([]);
  });

  it('searches repositories by name, by workspace, or by address', async () => {
    const names = async (query: string) =>
      (
        (await get(`/api/user/search/repositories?query=${encodeURIComponent(query)}&per_page=100&selected_provider=bitbucket`)).json() as {
          full_name: string;
        }[]
      ).map((repo) => repo.full_name);
    expect(await names('COL')).toEqual(['turing/colossus']);
    expect(api!.requests).toContain(`/2.0/repositories/turing?pagelen=100&page=1&sort=-updated_on&q=${encodeURIComponent('name~"COL"')}`);
    // A workspace's name finds its repositories.
    expect(await names('turi')).toEqual(['turing/bombe', 'turing/enigma', 'turing/colossus']);
    expect(await names('turing/enig')).toEqual(['turing/enigma']);
    expect(await names('https://bitbucket.org/turing/bombe/src/main')).toEqual(['turing/bombe']);
    // No way elsewhere on Bitbucket's API.
    expect(await names('../user')).toEqual([]);
    expect(await names('https://bitbucket.org/turing/..')).toEqual([]);
    expect(api!.requests.filter((path) => !/^\/2\.0\/(repositories\/turing\b|user\/workspaces\?)/.test(path))).toEqual([]);
    // A quote in the query stays inside Bitbucket's string.
    expect(await names('a"b')).toEqual([]);
    expect(api!.requests).toContain(`/2.0/repositories/turing?pagelen=100&page=1&sort=-updated_on&q=${encodeURIComponent('name~"a\\"b"')}`);
  });

  it("pages a repository's branches with Bitbucket's count, and searches them with Bitbucket's query", async () => {
    const first = await get('/api/user/repository/branches?repository=turing%2Fbombe&page=1&per_page=2');
    expect(first.json()).toEqual({
      branches: [
        { name: 'faster-drums', commit_sha: 'b0b021', protected: false, last_push_date: '2025-11-22T08:00:00+00:00' },
        { name: 'menus', commit_sha: 'b0b022', protected: false, last_push_date: '2025-11-21T08:00:00+00:00' },
      ],
      has_next_page: true,
      current_page: 1,
      per_page: 2,
      total_count: 3,
    });
    expect(api!.requests).toContain('/2.0/repositories/turing/bombe/refs/branches?pagelen=2&page=1&sort=-target.date');
    expect((await get('/api/user/repository/branches?repository=turing/bombe&page=2&per_page=2')).json()).toMatchObject({
      branches: [{ name: 'main' }],
      has_next_page: false,
      current_page: 2,
    });
    const found = (await get('/api/user/search/branches?repository=turing/bombe&query=DRUM&selected_provider=bitbucket')).json();
    expect(found).toMatchObject([{ name: 'faster-drums', commit_sha: 'b0b021' }]);
  });

  it('asks each connected provider in turn for branches when the client names none, as OpenHands does', async () => {
    const both = { github: { token: 'bb-good', host: api!.url }, bitbucket: { token: 'bb-good', host: api!.url } };
    const stored = await t.request({
      method: 'POST',
      url: '/api/add-git-providers',
      payload: JSON.stringify({ provider_tokens: both }),
      headers: { 'content-type': 'application/json' },
    });
    expect(stored.statusCode).toBe(200);
    const bitbucket = (await get('/api/user/repository/branches?repository=turing/bombe&page=1&per_page=30')).json();
    expect(bitbucket).toMatchObject({ branches: [{ name: 'faster-drums' }, { name: 'menus' }, { name: 'main' }], total_count: 3 });
    // Bitbucket has no ada/engine (404): GitHub's branches are the answer.
    const github = (await get('/api/user/repository/branches?repository=ada/engine&page=2&per_page=30')).json();
    expect(github).toMatchObject({ branches: [{ name: 'fix-bearings' }] });
    expect(api!.requests).toContain('/2.0/repositories/ada/engine/refs/branches?pagelen=30&page=2&sort=-target.date');
    expect((await get('/api/user/search/branches?repository=turing/bombe&query=menu')).json()).toMatchObject([{ name: 'menus' }]);
    // A search on a selected provider asks that one only.
    expect((await get('/api/user/search/branches?repository=turing/bombe&query=menu&selected_provider=github')).json()).toEqual([]);
  });
});

describe('/api/user/* when the provider cannot be reached', () => {
  it('returns 503 for the user and the empty lists OpenHands returns', async () => {
    expect((await connect('github', 'ghp_any', 'http://127.0.0.1:9')).statusCode).toBe(200);
    const info = await get('/api/user/info');
    expect(info.statusCode).toBe(503);
    expect(info.json().detail).toMatch(/^Could not reach GitHub at http:\/\/127\.0\.0\.1:9\/api\/v3\/user/);
    expect((await get('/api/user/repositories')).json()).toEqual([]);
    expect((await get('/api/user/suggested-tasks')).json()).toEqual([]);
  });

  it('refuses a page number that is not one', async () => {
    const response = await get('/api/user/repositories?page=0');
    expect(response.statusCode).toBe(422);
    expect(response.json().detail[0].loc).toEqual(['query', 'page']);
  });
});
