import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeProviderApi, startFakeProviderApi } from '../../../test-support/git/fake-provider-api';
import { BITBUCKET_UUID } from '../../../test-support/git/fake-provider-tasks';
import { startTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let api: FakeProviderApi;
beforeEach(async () => {
  t = await startTestApp();
  api = await startFakeProviderApi('good-token');
});
afterEach(async () => {
  await t.close();
  await api.close();
});

/** Connects these providers (and only these: the request replaces the stored set), each with its token. */
const connect = async (...providers: (string | [string, string])[]) => {
  const tokens = Object.fromEntries(
    providers.map((p) => (typeof p === 'string' ? [p, { token: 'good-token', host: api.url }] : [p[0], { token: p[1], host: api.url }])),
  );
  const response = await t.request({
    method: 'POST',
    url: '/api/add-git-providers',
    payload: JSON.stringify({ provider_tokens: tokens }),
    headers: { 'content-type': 'application/json' },
  });
  expect(response.statusCode).toBe(200);
};
const suggested = async () => {
  const response = await t.request({ method: 'GET', url: '/api/user/suggested-tasks' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Record<string, unknown>[];
};
/** The fields OpenHands returns, and the branch, which says where the work starts. */
const brief = (tasks: Record<string, unknown>[]) =>
  tasks.map(({ task_type, repo, issue_number, branch }) => ({ task_type, repo, issue_number, branch }));

describe('suggested tasks from GitHub, over its GraphQL API as OpenHands asks', () => {
  it('suggests pull requests with merge conflicts, failing checks or unresolved review threads, then assigned issues', async () => {
    await connect('github');
    const tasks = await suggested();
    expect(brief(tasks)).toEqual([
      { task_type: 'FAILING_CHECKS', repo: 'ada/engine', issue_number: 12, branch: 'feature/fast-engine' },
      // Conflicts come first even when the checks fail too.
      { task_type: 'MERGE_CONFLICTS', repo: 'ada/engine', issue_number: 15, branch: 'fix-bearings' },
      { task_type: 'UNRESOLVED_COMMENTS', repo: 'lovelace-org/notes', issue_number: 3, branch: 'translation' },
      // #16 needs nothing (approved, threads resolved): not suggested. Issues start on the default branch.
      { task_type: 'OPEN_ISSUE', repo: 'ada/engine', issue_number: 4, branch: 'main' },
    ]);
    expect(tasks[0]).toEqual({
      git_provider: 'github',
      task_type: 'FAILING_CHECKS',
      repo: 'ada/engine',
      issue_number: 12,
      title: 'Faster engine',
      branch: 'feature/fast-engine',
      url: `${api.url}/ada/engine/pull/12`,
      prompt: [
        'You are working on Pull Request #12 in repository ada/engine. You need to fix the failing CI checks.',
        'Use the GitHub API with the GITHUB_TOKEN environment variable to retrieve the PR details.',
        "Check out the branch from that pull request and look at the diff versus the base branch of the PR to understand the PR's intention.",
        'Then use the GitHub API to look at the GitHub Actions that are failing on the most recent commit. Try and reproduce the failure locally.',
        'Get things working locally, then push your changes. Sleep for 30 seconds at a time until the GitHub github actions have run again.',
        'If they are still failing, repeat the process.',
      ].join('\n'),
    });
    expect(tasks[3]!.prompt).toBe(
      [
        'You are working on Issue #4 in repository ada/engine. Your goal is to fix the issue.',
        'Use the GitHub API with the GITHUB_TOKEN environment variable to retrieve the issue details and any comments on the issue.',
        'Then check out a new branch and investigate what changes will need to be made.',
        'Finally, make the required changes and open up a pull request. Be sure to reference the issue in the PR description.',
      ].join('\n'),
    );
    // GitHub Enterprise's GraphQL, beside its REST API; the issues found by a search for the user's assigned ones.
    expect(api.requests.filter((path) => path === '/api/graphql')).toHaveLength(2);
  });
});

describe('suggested tasks from GitLab, over its GraphQL (merge requests) and REST (issues) APIs', () => {
  it('suggests merge requests with conflicts, a failed pipeline or unresolved discussions, then assigned issues', async () => {
    await connect('gitlab');
    const tasks = await suggested();
    expect(brief(tasks)).toEqual([
      { task_type: 'UNRESOLVED_COMMENTS', repo: 'navy/cobol', issue_number: 5, branch: 'add-compiler' },
      { task_type: 'MERGE_CONFLICTS', repo: 'navy/cobol', issue_number: 6, branch: 'moth-log' },
      { task_type: 'FAILING_CHECKS', repo: 'navy/cobol', issue_number: 7, branch: 'faster-loops' },
      // The issue's project says its default branch.
      { task_type: 'OPEN_ISSUE', repo: 'navy/cobol', issue_number: 3, branch: 'master' },
    ]);
    expect(tasks[1]).toMatchObject({ git_provider: 'gitlab', title: 'Moth log', url: `${api.url}/navy/cobol/-/merge_requests/6` });
    expect(tasks[1]!.prompt).toBe(
      [
        'You are working on Merge Request #6 in repository navy/cobol. You need to fix the merge conflicts.',
        'Use the GitLab API with the GITLAB_TOKEN environment variable to retrieve the MR details.',
        "Check out the branch from that merge request and look at the diff versus the base branch of the MR to understand the MR's intention.",
        "Then resolve the merge conflicts. If you aren't sure what the right solution is, look back through the commit history at the commits that introduced the conflict and resolve them accordingly.",
      ].join('\n'),
    );
    expect(api.requests).toContain('/api/graphql');
    expect(api.requests).toContain('/api/v4/issues?state=opened&scope=assigned_to_me&per_page=30');
    expect(api.requests).toContain('/api/v4/projects/11');
  });
});

describe('suggested tasks from Bitbucket, over its REST API', () => {
  it("suggests pull requests with a conflicting file, a failed build or someone's unresolved comment, then issues assigned in the user's repositories", async () => {
    await connect('bitbucket');
    const tasks = await suggested();
    expect(brief(tasks)).toEqual([
      // #21's only comment on the code is its author's own.
      { task_type: 'FAILING_CHECKS', repo: 'turing/bombe', issue_number: 21, branch: 'faster-drums' },
      { task_type: 'MERGE_CONFLICTS', repo: 'turing/bombe', issue_number: 22, branch: 'menus' },
      { task_type: 'UNRESOLVED_COMMENTS', repo: 'turing/bombe', issue_number: 23, branch: 'cribs' },
      // #24's comment was resolved. Only repositories with an issue tracker are asked for issues.
      { task_type: 'OPEN_ISSUE', repo: 'turing/bombe', issue_number: 7, branch: 'main' },
    ]);
    expect(tasks[3]).toMatchObject({
      git_provider: 'bitbucket',
      title: 'Drum wiring drifts',
      url: `${api.url}/turing/bombe/issues/7/drum-wiring-drifts`,
      prompt: expect.stringContaining('Use the Bitbucket API with the BITBUCKET_TOKEN environment variable'),
    });
    expect(api.requests).toContain(`/2.0/workspaces/turing/pullrequests/${encodeURIComponent(BITBUCKET_UUID)}?state=OPEN&pagelen=50`);
    expect(api.requests).toContain('/2.0/repositories/turing?role=member&sort=-updated_on&pagelen=100');
    // The diffstat's redirect to the repository's was followed, on the API's own origin.
    expect(api.requests.some((path) => path.startsWith('/2.0/repositories/turing/bombe/diffstat/'))).toBe(true);
    expect(api.requests.some((path) => path.startsWith('/2.0/repositories/turing/enigma/issues'))).toBe(false);
  });
});

describe('suggested tasks from several providers', () => {
  it("gathers each connected provider's; one that refuses its token leaves out its own only", async () => {
    await connect('github', 'gitlab', ['bitbucket', 'revoked']);
    expect(new Set((await suggested()).map((task) => task.git_provider))).toEqual(new Set(['github', 'gitlab']));
    await connect(['gitlab', 'revoked'], ['bitbucket', 'revoked']);
    const refused = await t.request({ method: 'GET', url: '/api/user/suggested-tasks' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/refused the stored token \(HTTP 401\): connect a new one under Settings → Git$/);
  });
});
