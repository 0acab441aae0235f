import type { SuggestedTask, SuggestedTaskType, TaskProvider } from '../../src/contract/suggested-tasks';
import { asList, asObject, count, getJson, graphql, type Json, type ProviderAccount, ProviderUnreachable, text } from './provider-http';
import { promptForTask } from './suggested-task-prompts';
import { graphqlUrl } from './token-verifier';

/*
 * The tasks OpenHands' home suggests (`get_suggested_tasks` of each provider's service at the
 * pinned commit): the user's open pull (merge) requests that have merge conflicts, failing checks
 * or unresolved review comments, in that order of precedence, and the open issues assigned to
 * them. A pull request that needs none of these is not suggested. GitHub is asked through its
 * GraphQL API, GitLab through its GraphQL (merge requests) and REST (issues) APIs, as OpenHands
 * does; Bitbucket, for which OpenHands suggests nothing yet, through its REST API, workspace by
 * workspace.
 */

/** How many pull requests, repositories and projects are looked into at most, each with a few requests of its own. */
const MAX_LOOKED_INTO = 20;

interface Found {
  type: SuggestedTaskType;
  repo: string | null;
  number: number | null;
  title: string | null;
  branch: string | null;
  url: string | null;
}

function task(provider: TaskProvider, found: Found): SuggestedTask | undefined {
  if (!found.repo || found.number === null || found.title === null) return undefined;
  return {
    git_provider: provider,
    task_type: found.type,
    repo: found.repo,
    issue_number: found.number,
    title: found.title,
    branch: found.branch,
    url: found.url,
    prompt: promptForTask(provider, found.type, found.number, found.repo),
  };
}

/** The first of conflicts, failing checks and unresolved comments that holds, else `OPEN_PR` (nothing to do). */
const pullRequestType = (conflicts: boolean, failing: boolean, unresolved: boolean): SuggestedTaskType =>
  conflicts ? 'MERGE_CONFLICTS' : failing ? 'FAILING_CHECKS' : unresolved ? 'UNRESOLVED_COMMENTS' : 'OPEN_PR';

/** The parts' tasks, in order; a part that failed is left out, unless every part failed. */
async function fromParts(parts: Promise<Found[]>[]): Promise<Found[]> {
  const settled = await Promise.allSettled(parts);
  const failed = settled.find((part) => part.status === 'rejected');
  if (failed && settled.every((part) => part.status === 'rejected')) throw failed.reason;
  return settled.flatMap((part) => (part.status === 'fulfilled' ? part.value : []));
}

const GITHUB_PULL_REQUESTS = `query SuggestedPullRequests($login: String!) {
  user(login: $login) {
    pullRequests(first: 50, states: [OPEN], orderBy: {field: UPDATED_AT, direction: DESC}) {
      nodes {
        number
        title
        url
        headRefName
        repository { nameWithOwner }
        mergeable
        reviewDecision
        commits(last: 1) { nodes { commit { statusCheckRollup { state } } } }
        reviewThreads(first: 50) { nodes { isResolved } }
      }
    }
  }
}`;

const GITHUB_ASSIGNED_ISSUES = `query SuggestedIssues($query: String!) {
  search(query: $query, type: ISSUE, first: 50) {
    nodes {
      ... on Issue {
        number
        title
        url
        repository { nameWithOwner defaultBranchRef { name } }
      }
    }
  }
}`;

/** GitHub's check rollup states that mean a check failed. */
const GITHUB_FAILED = ['FAILURE', 'ERROR'];

async function githubTasks(account: ProviderAccount<'github'>): Promise<Found[]> {
  const login = text(asObject((await getJson(account, '/user')).body).login);
  if (!login) throw new ProviderUnreachable('GitHub did not say who the token belongs to');
  const url = graphqlUrl('github', account.host);
  const pullRequests = async (): Promise<Found[]> => {
    const data = await graphql(account, url, GITHUB_PULL_REQUESTS, { login });
    return asList(asObject(asObject(data.user).pullRequests).nodes).map((pr) => {
      const rollup = asObject(asObject(asList(asObject(pr.commits).nodes)[0]?.commit).statusCheckRollup);
      const unresolved =
        pr.reviewDecision === 'CHANGES_REQUESTED' || asList(asObject(pr.reviewThreads).nodes).some((thread) => thread.isResolved === false);
      return {
        type: pullRequestType(pr.mergeable === 'CONFLICTING', GITHUB_FAILED.includes(String(rollup.state)), unresolved),
        repo: text(asObject(pr.repository).nameWithOwner),
        number: count(pr.number),
        title: text(pr.title),
        branch: text(pr.headRefName),
        url: text(pr.url),
      };
    });
  };
  const issues = async (): Promise<Found[]> => {
    const data = await graphql(account, url, GITHUB_ASSIGNED_ISSUES, { query: `is:open is:issue assignee:${login} archived:false` });
    return asList(asObject(data.search).nodes).map((issue) => ({
      type: 'OPEN_ISSUE',
      repo: text(asObject(issue.repository).nameWithOwner),
      number: count(issue.number),
      title: text(issue.title),
      branch: text(asObject(asObject(issue.repository).defaultBranchRef).name),
      url: text(issue.url),
    }));
  };
  return fromParts([pullRequests(), issues()]);
}

const GITLAB_MERGE_REQUESTS = `query SuggestedMergeRequests {
  currentUser {
    authoredMergeRequests(state: opened, sort: UPDATED_DESC, first: 100) {
      nodes {
        iid
        title
        webUrl
        sourceBranch
        conflicts
        project { fullPath }
        headPipeline { status }
        discussions(first: 100) { nodes { resolvable resolved } }
      }
    }
  }
}`;

/** `group/project` from GitLab's `references.full` (`group/project#3`). */
const gitlabRepoName = (references: unknown) => text(asObject(references).full)?.replace(/[!#]\d+$/, '') ?? null;

async function gitlabTasks(account: ProviderAccount<'gitlab'>): Promise<Found[]> {
  const mergeRequests = async (): Promise<Found[]> => {
    const data = await graphql(account, graphqlUrl('gitlab', account.host), GITLAB_MERGE_REQUESTS, {});
    return asList(asObject(asObject(data.currentUser).authoredMergeRequests).nodes).map((mr) => {
      const unresolved = asList(asObject(mr.discussions).nodes).some(
        (discussion) => discussion.resolvable === true && discussion.resolved === false,
      );
      const iid = typeof mr.iid === 'string' ? Number.parseInt(mr.iid, 10) : count(mr.iid); // GraphQL's `iid` is a string
      return {
        type: pullRequestType(mr.conflicts === true, asObject(mr.headPipeline).status === 'FAILED', unresolved),
        repo: text(asObject(mr.project).fullPath),
        number: Number.isInteger(iid) ? iid : null,
        title: text(mr.title),
        branch: text(mr.sourceBranch),
        url: text(mr.webUrl),
      };
    });
  };
  const issues = async (): Promise<Found[]> => {
    const assigned = asList((await getJson(account, '/issues?state=opened&scope=assigned_to_me&per_page=30')).body);
    // Issues do not name their project's default branch: its project does.
    const projects = [...new Set(assigned.map((issue) => count(issue.project_id)).filter((id) => id !== null))].slice(0, MAX_LOOKED_INTO);
    const defaults = new Map(
      await Promise.all(
        projects.map(async (id) => {
          const project = await getJson(account, `/projects/${id}`).then(
            ({ body }) => asObject(body),
            () => ({}) as Json,
          );
          return [id, text(project.default_branch)] as const;
        }),
      ),
    );
    return assigned.map((issue) => ({
      type: 'OPEN_ISSUE',
      repo: gitlabRepoName(issue.references),
      number: count(issue.iid),
      title: text(issue.title),
      branch: defaults.get(count(issue.project_id) ?? -1) ?? null,
      url: text(issue.web_url),
    }));
  };
  return fromParts([mergeRequests(), issues()]);
}

/** The diffstat statuses Bitbucket gives the files of a pull request that cannot merge. */
const BITBUCKET_CONFLICTS = [
  'merge conflict',
  'rename conflict',
  'rename/delete conflict',
  'subrepo conflict',
  'local deleted',
  'remote deleted',
];

/** Bitbucket's paged list: its `values`. */
const values = (body: unknown) => asList(asObject(body).values);
const bitbucketRepo = (name: string) => `/repositories/${name.split('/').map(encodeURIComponent).join('/')}`;

async function bitbucketTasks(account: ProviderAccount<'bitbucket'>): Promise<Found[]> {
  const uuid = text(asObject((await getJson(account, '/user')).body).uuid);
  if (!uuid) throw new ProviderUnreachable('Bitbucket did not say who the token belongs to');
  // Bitbucket lists pull requests and repositories per workspace (its lists across workspaces are gone): the user's workspaces first.
  const workspaces = values((await getJson(account, '/user/workspaces?pagelen=100')).body)
    .flatMap((membership) => text(asObject(membership.workspace).slug) ?? [])
    .slice(0, MAX_LOOKED_INTO);
  const inEachWorkspace = async (path: (workspace: string) => string) =>
    (
      await Promise.all(workspaces.map(async (workspace) => values((await getJson(account, path(encodeURIComponent(workspace)))).body)))
    ).flat();
  const pullRequests = async (): Promise<Found[]> => {
    const authored = await inEachWorkspace(
      (workspace) => `/workspaces/${workspace}/pullrequests/${encodeURIComponent(uuid)}?state=OPEN&pagelen=50`,
    );
    return Promise.all(
      authored.slice(0, MAX_LOOKED_INTO).map(async (pr): Promise<Found> => {
        const repo = text(asObject(asObject(pr.destination).repository).full_name);
        const id = count(pr.id);
        const base = repo && id !== null ? `${bitbucketRepo(repo)}/pullrequests/${id}` : null;
        const list = async (path: string) => (base ? values((await getJson(account, `${base}${path}`)).body) : []);
        // A pull request's diffstat redirects to the repository's, whose files say which conflict.
        const [statuses, diffstat, comments] = await Promise.all([
          list('/statuses?pagelen=50'),
          list('/diffstat'),
          list('/comments?pagelen=100'),
        ]);
        const author = text(asObject(pr.author).uuid);
        const unresolved =
          (count(pr.task_count) ?? 0) > 0 ||
          comments.some(
            (comment) =>
              // A review comment on the code that starts a thread, from someone else, neither deleted nor resolved.
              text(asObject(comment.inline).path) !== null &&
              comment.parent == null &&
              comment.deleted !== true &&
              !comment.resolution &&
              text(asObject(comment.user).uuid) !== author,
          );
        return {
          type: pullRequestType(
            diffstat.some((file) => BITBUCKET_CONFLICTS.includes(String(file.status))),
            statuses.some((status) => status.state === 'FAILED'),
            unresolved,
          ),
          repo,
          number: id,
          title: text(pr.title),
          branch: text(asObject(asObject(pr.source).branch).name),
          url: text(asObject(asObject(pr.links).html).href),
        };
      }),
    );
  };
  const issues = async (): Promise<Found[]> => {
    // Bitbucket's issue trackers are per repository: those of the repositories the user is a member of.
    const repositories = (await inEachWorkspace((workspace) => `/repositories/${workspace}?role=member&sort=-updated_on&pagelen=100`))
      .filter((repository) => repository.has_issues === true)
      .slice(0, MAX_LOOKED_INTO);
    const query = encodeURIComponent(`assignee.uuid="${uuid}" AND (state="new" OR state="open")`);
    const lists = await Promise.all(
      repositories.map(async (repository) => {
        const repo = text(repository.full_name);
        if (!repo) return [];
        const assigned = values((await getJson(account, `${bitbucketRepo(repo)}/issues?q=${query}&pagelen=50`)).body);
        return assigned.map((issue): Found => ({
          type: 'OPEN_ISSUE',
          repo,
          number: count(issue.id),
          title: text(issue.title),
          branch: text(asObject(repository.mainbranch).name),
          url: text(asObject(asObject(issue.links).html).href),
        }));
      }),
    );
    return lists.flat();
  };
  return fromParts([pullRequests(), issues()]);
}

/** The tasks the provider suggests to its user: pull requests that need something, then assigned issues. */
export async function fetchSuggestedTasks(account: ProviderAccount<TaskProvider>): Promise<SuggestedTask[]> {
  const found =
    account.provider === 'github'
      ? await githubTasks(account as ProviderAccount<'github'>)
      : account.provider === 'gitlab'
        ? await gitlabTasks(account as ProviderAccount<'gitlab'>)
        : await bitbucketTasks(account as ProviderAccount<'bitbucket'>);
  return found
    .filter((item) => item.type !== 'OPEN_PR')
    .map((item) => task(account.provider, item))
    .filter((item) => item !== undefined);
}
