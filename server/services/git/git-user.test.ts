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
    expect(info.json()).toEqual({ detail: 'No GitHub or GitLab token is connected: add one under Settings → Git' });
    expect((await get('/api/user/repositories?selected_provider=github&sort=pushed&page=1&per_page=30')).json()).toEqual([]);
    expect((await get('/api/user/suggested-tasks')).json()).toEqual([]);
  });

  it('needs the session key like every /api route', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/user/info' })).statusCode).toBe(401);
  });
});

describe('/api/user/* with a GitHub token', () => {
  beforeEach(async () => {
    api = await startFakeProviderApi('ghp_good', {
      prs: [{ number: 12, title: 'Faster engine', repository_url: 'https://api.github.com/repos/ada/engine', pull_request: {} }],
      issues: [{ number: 4, title: 'Notes on note G', repository_url: 'https://api.github.com/repos/lovelace-org/notes' }],
    });
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

  it("suggests the user's open pull requests and assigned issues", async () => {
    const response = await get('/api/user/suggested-tasks');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { git_provider: 'github', task_type: 'OPEN_PR', repo: 'ada/engine', issue_number: 12, title: 'Faster engine' },
      { git_provider: 'github', task_type: 'OPEN_ISSUE', repo: 'lovelace-org/notes', issue_number: 4, title: 'Notes on note G' },
    ]);
    expect(api!.requests).toContain(`/api/v3/search/issues?q=${encodeURIComponent('is:open is:pr author:ada')}&per_page=30`);
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
  it("reads the user, projects, merge requests and issues from GitLab's API", async () => {
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
    expect((await get('/api/user/suggested-tasks')).json()).toEqual([
      { git_provider: 'gitlab', task_type: 'OPEN_PR', repo: 'navy/cobol', issue_number: 5, title: 'Add compiler' },
      { git_provider: 'gitlab', task_type: 'OPEN_ISSUE', repo: 'navy/cobol', issue_number: 3, title: 'Moth in relay' },
    ]);
    // No GitHub token: its repositories are an empty list, not GitLab's.
    expect((await get('/api/user/repositories?selected_provider=github')).json()).toEqual([]);
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
