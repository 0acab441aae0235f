import type { Routes } from './fake-provider-api';
import { BITBUCKET_BRANCHES, BITBUCKET_REPOSITORIES, bitbucketListPage } from './fake-bitbucket-lists';

/*
 * The fake provider's pull requests and issues, as GitHub's GraphQL and REST APIs, GitLab's
 * GraphQL and REST APIs and Bitbucket Cloud's REST API (2.0) return them: for each user, a pull
 * request with merge conflicts, one with failing checks, one with unresolved review comments,
 * one that needs nothing, and an open issue assigned to them.
 */

/** Bitbucket's user, by the uuid its API names users with. */
export const BITBUCKET_UUID = '{5e1f7c2a-0c9b-4a53-9d1e-6b1d3c0a7f42}';
const OTHER_UUID = '{0a3c4d5e-1111-4222-8333-944455566677}';

const githubPullRequest = (
  base: string,
  repo: string,
  number: number,
  title: string,
  branch: string,
  state: { mergeable?: string; checks?: string | null; decision?: string | null; threads?: boolean[] },
) => ({
  number,
  title,
  url: `${base}/${repo}/pull/${number}`,
  headRefName: branch,
  repository: { nameWithOwner: repo },
  mergeable: state.mergeable ?? 'MERGEABLE',
  reviewDecision: state.decision ?? null,
  commits: { nodes: [{ commit: { statusCheckRollup: state.checks === null ? null : { state: state.checks ?? 'SUCCESS' } } }] },
  reviewThreads: { nodes: (state.threads ?? []).map((isResolved) => ({ isResolved })) },
});

/** GitHub's GraphQL (`/api/graphql` on GitHub Enterprise): ada's open pull requests, and a search for the issues assigned to her. */
function githubGraphql(base: string, query: string, variables: Record<string, unknown>): unknown {
  if (query.includes('pullRequests(') && variables.login === 'ada') {
    return {
      data: {
        user: {
          pullRequests: {
            nodes: [
              githubPullRequest(base, 'ada/engine', 12, 'Faster engine', 'feature/fast-engine', { checks: 'FAILURE' }),
              githubPullRequest(base, 'ada/engine', 15, 'Bearings in brass', 'fix-bearings', {
                mergeable: 'CONFLICTING',
                checks: 'FAILURE',
              }),
              githubPullRequest(base, 'lovelace-org/notes', 3, 'Translate the memoir', 'translation', { threads: [true, false] }),
              githubPullRequest(base, 'ada/engine', 16, 'Tidy the README', 'readme', {
                checks: null,
                decision: 'APPROVED',
                threads: [true],
              }),
            ],
          },
        },
      },
    };
  }
  if (query.includes('search(') && typeof variables.query === 'string') {
    const assigned =
      variables.query.includes('assignee:ada') && variables.query.includes('is:issue') && variables.query.includes('is:open');
    const nodes = assigned
      ? [
          {
            number: 4,
            title: 'Punch cards jam in the reader',
            url: `${base}/ada/engine/issues/4`,
            repository: { nameWithOwner: 'ada/engine', defaultBranchRef: { name: 'main' } },
          },
        ]
      : [];
    return { data: { search: { nodes } } };
  }
  return { errors: [{ type: 'INVALID', message: 'The fake GitHub does not know this query' }] };
}

const gitlabMergeRequest = (
  base: string,
  iid: number,
  title: string,
  branch: string,
  state: { conflicts?: boolean; pipeline?: string | null; discussions?: { resolvable: boolean; resolved: boolean }[] },
) => ({
  iid: String(iid), // GitLab's GraphQL gives iids as strings
  title,
  webUrl: `${base}/navy/cobol/-/merge_requests/${iid}`,
  sourceBranch: branch,
  conflicts: state.conflicts ?? false,
  project: { fullPath: 'navy/cobol' },
  headPipeline: state.pipeline === null ? null : { status: state.pipeline ?? 'SUCCESS' },
  discussions: { nodes: state.discussions ?? [] },
});

/** GitLab's GraphQL: grace's authored merge requests. */
function gitlabGraphql(base: string, query: string): unknown {
  if (!query.includes('authoredMergeRequests(')) return { errors: [{ message: 'The fake GitLab does not know this query' }] };
  return {
    data: {
      currentUser: {
        authoredMergeRequests: {
          nodes: [
            gitlabMergeRequest(base, 5, 'Add compiler', 'add-compiler', {
              discussions: [
                { resolvable: false, resolved: false },
                { resolvable: true, resolved: false },
              ],
            }),
            gitlabMergeRequest(base, 6, 'Moth log', 'moth-log', { conflicts: true, pipeline: 'FAILED' }),
            gitlabMergeRequest(base, 7, 'Faster loops', 'faster-loops', { pipeline: 'FAILED' }),
            gitlabMergeRequest(base, 8, 'Document the relay', 'relay-docs', {
              pipeline: null,
              discussions: [{ resolvable: true, resolved: true }],
            }),
          ],
        },
      },
    },
  };
}

/** GitHub's and GitLab's GraphQL APIs, on one path (`/api/graphql`) as each serves it on its own host. */
export function graphqlRoute(base: string) {
  return (_url: URL, body: unknown, method: string) => {
    if (method !== 'POST') return { status: 404, body: { message: 'Not Found' } };
    const { query = '', variables = {} } = (body ?? {}) as { query?: string; variables?: Record<string, unknown> };
    return { body: query.includes('currentUser') ? gitlabGraphql(base, query) : githubGraphql(base, query, variables) };
  };
}

export function githubIssueRoutes(base: string): Routes {
  return {
    '/api/v3/repos/ada/engine': { body: { id: 7, full_name: 'ada/engine', private: false, default_branch: 'main' } },
    '/api/v3/repos/ada/engine/issues/4': {
      body: {
        number: 4,
        state: 'open',
        title: 'Punch cards jam in the reader',
        body: 'Cards with more than 40 holes jam. Steps: feed card 7 of the Bernoulli deck. Expected: read; actual: jam at column 12.',
        labels: [{ name: 'bug' }, { name: 'reader' }],
        html_url: `${base}/ada/engine/issues/4`,
      },
    },
    '/api/v3/repos/ada/engine/issues/4/comments': {
      body: [{ user: { login: 'charles' }, body: 'Seen it too, only with the thicker cards.' }],
    },
  };
}

export function gitlabIssueRoutes(base: string): Routes {
  const project = { body: { id: 11, path_with_namespace: 'navy/cobol', default_branch: 'master' } };
  return {
    '/api/v4/projects/11': project,
    '/api/v4/projects/navy%2Fcobol': project,
    '/api/v4/issues': (url) => ({
      body:
        url.searchParams.get('scope') === 'assigned_to_me' && url.searchParams.get('state') === 'opened'
          ? [
              {
                iid: 3,
                project_id: 11,
                title: 'Moth in relay',
                references: { full: 'navy/cobol#3' },
                web_url: `${base}/navy/cobol/-/issues/3`,
              },
            ]
          : [],
    }),
    '/api/v4/projects/navy%2Fcobol/issues/3': {
      body: {
        iid: 3,
        project_id: 11,
        title: 'Moth in relay',
        description: 'Relay 70 of panel F sticks. A moth was found in it.',
        labels: ['bug'],
        web_url: `${base}/navy/cobol/-/issues/3`,
      },
    },
    '/api/v4/projects/navy%2Fcobol/issues/3/notes': {
      body: [
        { body: 'changed the description', system: true, author: { username: 'grace' } },
        { body: 'Taped it into the log book.', system: false, author: { username: 'ada' } },
      ],
    },
  };
}

const BITBUCKET_ISSUE = (base: string) => ({
  id: 7,
  title: 'Drum wiring drifts',
  state: 'open',
  kind: 'bug',
  priority: 'major',
  content: { raw: 'The drums lose alignment after a few hours; see the log.', markup: 'markdown' },
  assignee: { uuid: BITBUCKET_UUID, display_name: 'Alan T' },
  links: { html: { href: `${base}/turing/bombe/issues/7/drum-wiring-drifts` } },
});

const bitbucketPage = (values: unknown[]) => ({ pagelen: 50, size: values.length, page: 1, values });

interface BitbucketPullRequest {
  id: number;
  title: string;
  branch: string;
  statuses?: string[];
  conflict?: boolean;
  comments?: object[];
  tasks?: number;
}

const BITBUCKET_PULL_REQUESTS: BitbucketPullRequest[] = [
  // Its own comment on the code is not one someone else waits on.
  {
    id: 21,
    title: 'Faster bombe',
    branch: 'faster-drums',
    statuses: ['SUCCESSFUL', 'FAILED'],
    comments: [{ id: 1, inline: { path: 'drums.py', to: 3 }, user: { uuid: BITBUCKET_UUID }, deleted: false }],
  },
  { id: 22, title: 'Menu rework', branch: 'menus', conflict: true, statuses: ['FAILED'] },
  {
    id: 23,
    title: 'Crib notes',
    branch: 'cribs',
    comments: [
      { id: 2, content: { raw: 'Looks good overall' }, user: { uuid: OTHER_UUID }, deleted: false },
      { id: 3, content: { raw: 'Name this constant' }, inline: { path: 'cribs.py', to: 12 }, user: { uuid: OTHER_UUID }, deleted: false },
      {
        id: 4,
        content: { raw: 'Done' },
        inline: { path: 'cribs.py', to: 12 },
        parent: { id: 3 },
        user: { uuid: BITBUCKET_UUID },
        deleted: false,
      },
    ],
  },
  {
    id: 24,
    title: 'Typos',
    branch: 'typos',
    statuses: ['SUCCESSFUL'],
    comments: [
      {
        id: 5,
        inline: { path: 'README.md', to: 1 },
        user: { uuid: OTHER_UUID },
        deleted: false,
        resolution: { type: 'comment_resolution', user: { uuid: BITBUCKET_UUID }, created_on: '2025-11-20T10:00:00Z' },
      },
    ],
  },
];

/** Bitbucket Cloud's REST API (2.0) for user "alan": his pull requests and what each has, the repositories he is a member of, their issues. */
export function bitbucketRoutes(base: string): Routes {
  const repo = '/2.0/repositories/turing/bombe';
  const routes: Routes = {
    '/2.0/user': {
      body: {
        type: 'user',
        uuid: BITBUCKET_UUID,
        account_id: '5f00:alan',
        username: 'alan-turing',
        nickname: 'alan',
        display_name: 'Alan T',
        links: { avatar: { href: 'https://bitbucket.example/alan.png' } },
      },
    },
    // Bitbucket's lists across workspaces are gone (HTTP 410): pull requests and repositories are listed per workspace.
    '/2.0/user/workspaces': {
      body: bitbucketPage([
        {
          type: 'workspace_access',
          administrator: false,
          workspace: { type: 'workspace', slug: 'turing', uuid: '{7ur1n9}', name: 'Turing' },
        },
      ]),
    },
    [`/2.0/workspaces/turing/pullrequests/${encodeURIComponent(BITBUCKET_UUID)}`]: (url) => ({
      body: bitbucketPage(
        url.searchParams.get('state') === 'OPEN'
          ? BITBUCKET_PULL_REQUESTS.map((pr) => ({
              type: 'pullrequest',
              id: pr.id,
              title: pr.title,
              state: 'OPEN',
              author: { type: 'user', uuid: BITBUCKET_UUID, display_name: 'Alan T' },
              source: { branch: { name: pr.branch }, repository: { type: 'repository', full_name: 'turing/bombe' } },
              destination: { branch: { name: 'main' }, repository: { type: 'repository', full_name: 'turing/bombe' } },
              comment_count: pr.comments?.length ?? 0,
              task_count: pr.tasks ?? 0,
              links: { html: { href: `${base}/turing/bombe/pull-requests/${pr.id}` } },
            }))
          : [],
      ),
    }),
    [`/2.0/pullrequests/${encodeURIComponent(BITBUCKET_UUID)}`]: { status: 410, body: { type: 'error', error: { message: 'Gone' } } },
    '/2.0/repositories': { status: 410, body: { type: 'error', error: { message: 'Gone' } } },
    // Alan is a member of every repository of his workspace (`role=member` lists the same ones).
    '/2.0/repositories/turing': (url) => bitbucketListPage(url, BITBUCKET_REPOSITORIES),
    [repo]: { body: BITBUCKET_REPOSITORIES[0] },
    [`${repo}/refs/branches`]: (url) => bitbucketListPage(url, BITBUCKET_BRANCHES),
    [`${repo}/issues`]: (url) => {
      const q = url.searchParams.get('q') ?? '';
      const assigned = q.includes(`assignee.uuid="${BITBUCKET_UUID}"`) && q.includes('state="open"');
      return { body: bitbucketPage(assigned ? [{ type: 'issue', ...BITBUCKET_ISSUE(base) }] : []) };
    },
    [`${repo}/issues/7`]: { body: { type: 'issue', ...BITBUCKET_ISSUE(base) } },
    [`${repo}/issues/7/comments`]: {
      body: bitbucketPage([
        { type: 'issue_comment', id: 70, content: { raw: 'It drifts after an hour of running.' }, user: { display_name: 'Joan C' } },
      ]),
    },
  };
  for (const pr of BITBUCKET_PULL_REQUESTS) {
    const path = `${repo}/pullrequests/${pr.id}`;
    const spec = `turing/bombe:c0ffee${pr.id}%0Dd00d${pr.id}`;
    routes[`${path}/statuses`] = {
      body: bitbucketPage((pr.statuses ?? []).map((state, i) => ({ type: 'build', key: `build-${i}`, state }))),
    };
    routes[`${path}/comments`] = {
      body: bitbucketPage((pr.comments ?? []).map((comment) => ({ type: 'pullrequest_comment', ...comment }))),
    };
    // As Bitbucket does: a pull request's diffstat is the repository's, between its two commits.
    routes[`${path}/diffstat`] = {
      status: 302,
      headers: { location: `${base}${repo}/diffstat/${spec}?from_pullrequest_id=${pr.id}&topic=true` },
      body: {},
    };
    routes[`${repo}/diffstat/${spec}`] = {
      body: bitbucketPage([
        { type: 'diffstat', status: pr.conflict ? 'merge conflict' : 'modified', old: { path: 'bombe.py' }, new: { path: 'bombe.py' } },
      ]),
    };
  }
  return routes;
}
