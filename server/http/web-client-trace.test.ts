import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeProviderApi, startFakeProviderApi } from '../../test-support/git/fake-provider-api';
import { startTestApp, TEST_SESSION_KEY, type TestApp } from '../testing/test-app';

/*
 * Replays what OpenHands' own web client (pinned commit 156d068, OSS mode) sent while a person
 * used it against this server (`testing/fixtures/openhands-web-client-trace.json`), signed in
 * the way that client can be: with the session cookie from the server's sign-in page, never the
 * key header. Each response is checked for what the client reads of it, not for the status our
 * server responded with when the trace was recorded (`status_observed`).
 */

interface TraceRequest {
  run: string;
  step: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** As recorded; for the three truncated ones, completed (see `body_completed` in the fixture). */
  body?: unknown;
  body_completed?: string;
}

const trace: { requests: TraceRequest[] } = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, '../testing/fixtures/openhands-web-client-trace.json'), 'utf8'),
);

/** The token the person typed on the Git page: the fake provider takes it. */
const TRACED_GITHUB_TOKEN = 'ghp_ohfeFakeToken123';
// localhost: on 127.0.0.1 (where sandboxes are published) the server sets no cookie.
const HOST = 'localhost:3000';
const ORIGIN = `http://${HOST}`;

const apps: TestApp[] = [];
let provider: FakeProviderApi | undefined;
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
  await provider?.close();
  provider = undefined;
});

/** Signs in with the server's own sign-in form, as a person would before opening the client. */
async function signInWithForm(t: TestApp): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/sign-in',
    payload: new URLSearchParams({ key: TEST_SESSION_KEY }).toString(),
    headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(response.statusCode).toBe(303);
  return String(response.headers['set-cookie']).split(';')[0]!;
}

/** A browser's same-origin request: the cookie, `Origin` on writes, `Sec-Fetch-Site` always, no key header. */
function browser(t: TestApp, cookie: string) {
  return (method: TraceRequest['method'], url: string, body?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: {
        host: HOST,
        cookie,
        'sec-fetch-site': 'same-origin',
        ...(method === 'GET' ? {} : { origin: ORIGIN }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
}

/** Our one change to a recorded body: the GitHub token goes to the fake provider, not to github.com. */
function replayedBody(request: TraceRequest, providerUrl: string): unknown {
  if (request.path !== '/api/add-git-providers') return request.body;
  const body = structuredClone(request.body) as { provider_tokens: { github: { token: string; host: string } } };
  expect(body.provider_tokens.github.token).toBe(TRACED_GITHUB_TOKEN);
  body.provider_tokens.github.host = providerUrl;
  return body;
}

interface RunState {
  settingsSaved: boolean;
  startedTaskId?: string;
}

/** What the client reads of each response, by request (and, for settings, by whether any were saved). */
function expectWhatTheClientNeeds(request: TraceRequest, response: LightMyRequestResponse, state: RunState): void {
  const what = `${request.run} ${request.step}: ${request.method} ${request.path} → ${response.statusCode} ${response.body.slice(0, 300)}`;
  const json = () => response.json();
  const route = `${request.method} ${request.path.split('?')[0]}`;
  switch (route) {
    case 'GET /api/settings':
      if (state.settingsSaved) {
        expect(response.statusCode, what).toBe(200);
        expect(json(), what).toMatchObject({
          llm_model: expect.any(String),
          llm_api_key_set: expect.any(Boolean),
          mcp_config: expect.any(Object),
          provider_tokens_set: expect.any(Object),
        });
      } else {
        // Its first-run modal opens on this 404.
        expect(response.statusCode, what).toBe(404);
      }
      return;
    case 'POST /api/settings':
      expect(response.statusCode, what).toBe(200);
      state.settingsSaved = true;
      return;
    case 'GET /api/conversations':
      expect(response.statusCode, what).toBe(200);
      expect(json(), what).toEqual({ results: expect.any(Array), next_page_id: null });
      return;
    case 'GET /api/secrets':
      expect(response.statusCode, what).toBe(200);
      expect(json().custom_secrets, what).toEqual(expect.any(Array));
      if (request.run === 'B2')
        expect(json().custom_secrets, what).toEqual([{ name: 'MY_API_TOKEN', description: 'added from the OpenHands UI' }]);
      return;
    case 'POST /api/secrets':
      expect(response.statusCode, what).toBe(201);
      return;
    case 'PUT /api/secrets/MY_API_TOKEN':
    case 'DELETE /api/secrets/RENAMED_TOKEN':
    case 'POST /api/add-git-providers':
    case 'POST /api/unset-provider-tokens':
      expect(response.statusCode, what).toBe(200);
      return;
    case 'GET /api/user/info':
      expect(response.statusCode, what).toBe(200);
      expect(json(), what).toMatchObject({ id: '42', login: 'ada', avatar_url: 'https://avatars.example/ada.png' });
      return;
    case 'GET /api/user/repositories':
      expect(response.statusCode, what).toBe(200);
      expect(json()[0], what).toMatchObject({
        full_name: 'ada/engine',
        git_provider: 'github',
        link_header: expect.stringContaining('rel="next"'),
      });
      return;
    case 'GET /api/user/suggested-tasks':
      expect(response.statusCode, what).toBe(200);
      // OpenHands' fields, with ours beside them.
      expect(json()[0], what).toMatchObject({
        git_provider: 'github',
        task_type: 'FAILING_CHECKS',
        repo: 'ada/engine',
        issue_number: 12,
        title: 'Faster engine',
      });
      return;
    case 'POST /api/conversations':
      // Its V0 start: refused with where to go instead.
      expect(response.statusCode, what).toBe(422);
      expect(json().detail[0].msg, what).toContain('POST /api/v1/app-conversations');
      return;
    case 'POST /api/v1/app-conversations':
      expect(response.statusCode, what).toBe(200);
      expect(json(), what).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{32}$/), status: 'WORKING' });
      state.startedTaskId = json().id;
      return;
    default:
      throw new Error(`The trace has a request this test does not know what to expect of: ${what}`);
  }
}

describe("OpenHands' web client, replayed from its trace", () => {
  it('gets every response it needs, signed in with the session cookie only', async () => {
    provider = await startFakeProviderApi(TRACED_GITHUB_TOKEN);
    // Run D had a data dir of its own; B, B2 and B3 went on with one (B2 edits what B made).
    const runs = [trace.requests.filter((r) => r.run === 'D'), trace.requests.filter((r) => r.run !== 'D')];
    for (const requests of runs) {
      const t = await startTestApp();
      apps.push(t);
      const send = browser(t, await signInWithForm(t));

      // What it asks before any page shows (the trace left these out: a stand-in responded to them).
      const config = await send('GET', '/api/options/config');
      expect(config.statusCode).toBe(200);
      expect(config.json()).toEqual({
        APP_MODE: 'oss',
        GITHUB_CLIENT_ID: '',
        POSTHOG_CLIENT_KEY: '',
        FEATURE_FLAGS: { ENABLE_BILLING: false, HIDE_LLM_SETTINGS: false, ENABLE_JIRA: false, ENABLE_JIRA_DC: false, ENABLE_LINEAR: false },
      });
      for (const kind of ['models', 'agents', 'security-analyzers']) {
        const options = await send('GET', `/api/options/${kind}`);
        expect(options.statusCode, kind).toBe(200);
        expect(options.json(), kind).toEqual(expect.any(Array));
      }
      // Its model picker groups "provider/model" names by provider.
      expect((await send('GET', '/api/options/models')).json()).toContain('anthropic/claude-sonnet-4-5-20250929');

      const state: RunState = { settingsSaved: false };
      for (const request of requests) {
        const response = await send(request.method, request.path, replayedBody(request, provider.url));
        expectWhatTheClientNeeds(request, response, state);
      }

      if (requests[0]!.run === 'D') {
        expect((await t.getSettings()).json()).toMatchObject({ llm_model: 'anthropic/claude-sonnet-4-20250514', llm_api_key_set: true });
        continue;
      }
      // The MCP keys as the last runs left them: the SSE key went with the URL change (the rule
      // README explains), the SHTTP key stayed through the timeout-only edit.
      const mcp = (await t.getSettings()).json().mcp_config;
      expect(mcp.sse_servers).toEqual([expect.objectContaining({ url: 'https://mcp2.example.com/sse', api_key_set: false })]);
      expect(mcp.shttp_servers).toEqual([
        expect.objectContaining({ url: 'https://shttp.example.com/mcp', api_key_set: true, timeout: 45 }),
      ]);

      // The V1 start it made goes on: its conversation reads back through the legacy route its conversation page polls.
      const taskId = state.startedTaskId!;
      const task = await vi.waitFor(
        async () => {
          const current = (await send('GET', `/api/v1/app-conversations/start-tasks?ids=${taskId}`)).json()[0];
          expect(['READY', 'ERROR']).toContain(current.status);
          return current;
        },
        { timeout: 60_000 },
      );
      expect(task.status, task.detail).toBe('READY');
      const conversation = await send('GET', `/api/conversations/${task.app_conversation_id}`);
      expect(conversation.statusCode).toBe(200);
      expect(conversation.json()).toMatchObject({
        conversation_id: task.app_conversation_id,
        status: 'RUNNING',
        runtime_status: 'STATUS$READY',
        conversation_version: 'V1',
        url: expect.stringContaining(`/api/conversations/${task.app_conversation_id}`),
        session_api_key: expect.any(String),
      });
      expect((await send('GET', '/api/conversations?limit=10')).json().results).toHaveLength(1);
    }
  }, 120_000);

  it('lists and searches the branches of a repository picked on its home, as its git service asks (git-service.api.ts)', async () => {
    provider = await startFakeProviderApi(TRACED_GITHUB_TOKEN);
    const t = await startTestApp();
    apps.push(t);
    const send = browser(t, await signInWithForm(t));
    const token = { provider_tokens: { github: { token: TRACED_GITHUB_TOKEN, host: provider.url } } };
    expect((await send('POST', '/api/add-git-providers', token)).statusCode).toBe(200);

    // Its repository picker searches by name (axios puts the params in this order).
    const repositories = await send('GET', '/api/user/search/repositories?query=eng&per_page=100&selected_provider=github');
    expect(repositories.statusCode).toBe(200);
    expect(repositories.json()).toMatchObject([{ full_name: 'ada/engine', git_provider: 'github' }]);
    // Then its branch list, page by page while `has_next_page`, the repository encoded as one value.
    const first = await send('GET', `/api/user/repository/branches?repository=${encodeURIComponent('ada/engine')}&page=1&per_page=30`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      branches: [{ name: 'main' }, { name: 'feature/fast-engine' }],
      has_next_page: true,
      current_page: 1,
    });
    const second = await send('GET', `/api/user/repository/branches?repository=${encodeURIComponent('ada/engine')}&page=2&per_page=30`);
    expect(second.json()).toMatchObject({ branches: [{ name: 'fix-bearings' }], has_next_page: false });
    // And its branch search as someone types.
    const search = await send('GET', '/api/user/search/branches?repository=ada%2Fengine&query=fast&per_page=30&selected_provider=github');
    expect(search.statusCode).toBe(200);
    expect(search.json()).toEqual([{ name: 'feature/fast-engine', commit_sha: 'e2', protected: false, last_push_date: null }]);
  });

  it("lists a Bitbucket user's repositories workspace by workspace, as its home does in OSS mode (use-git-repositories.ts)", async () => {
    provider = await startFakeProviderApi(TRACED_GITHUB_TOKEN);
    const t = await startTestApp();
    apps.push(t);
    const send = browser(t, await signInWithForm(t));
    const token = { provider_tokens: { bitbucket: { token: TRACED_GITHUB_TOKEN, host: provider.url } } };
    expect((await send('POST', '/api/add-git-providers', token)).statusCode).toBe(200);

    // Bitbucket's repositories come installation by installation (shouldUseInstallationRepos): its workspaces first.
    const installations = await send('GET', '/api/user/installations?provider=bitbucket');
    expect(installations.statusCode).toBe(200);
    expect(installations.json()).toEqual(['turing']);
    const repositories = await send(
      'GET',
      '/api/user/repositories?selected_provider=bitbucket&sort=pushed&page=1&per_page=30&installation_id=turing',
    );
    expect(repositories.statusCode).toBe(200);
    expect(repositories.json()).toMatchObject([{ full_name: 'turing/bombe', git_provider: 'bitbucket', link_header: null }, {}, {}]);
    // A picked repository's branches: the client names no provider.
    const branches = await send('GET', `/api/user/repository/branches?repository=${encodeURIComponent('turing/bombe')}&page=1&per_page=30`);
    expect(branches.json()).toMatchObject({
      branches: [{ name: 'faster-drums' }, { name: 'menus' }, { name: 'main' }],
      has_next_page: false,
    });
    const search = await send(
      'GET',
      '/api/user/search/branches?repository=turing%2Fbombe&query=menu&per_page=30&selected_provider=bitbucket',
    );
    expect(search.json()).toMatchObject([{ name: 'menus', commit_sha: 'b0b022' }]);
  });
});
