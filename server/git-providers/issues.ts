import type { TaskProvider } from '../../src/contract/suggested-tasks';
import { asList, asObject, getJson, type Json, type ProviderAccount, text } from './provider-http';
import { webBase } from './token-verifier';

/*
 * One issue of GitHub, GitLab or Bitbucket, read with the user's token: what its page says
 * (title, text, labels, the first comments), for the solvability estimate; and which issue an
 * address on one of the connected providers names.
 */

export interface IssueRef {
  repo: string;
  number: number;
}

export interface Issue extends IssueRef {
  title: string;
  body: string;
  labels: string[];
  comments: { author: string; body: string }[];
  url: string | null;
  /** The repository's default branch, where a conversation about the issue starts. */
  defaultBranch: string | null;
}

/** The issue path of each provider's web pages, after its address: `owner/name/issues/4`, `group/project/-/issues/3`, `workspace/repo/issues/7/a-title`. */
const ISSUE_PATHS: Record<TaskProvider, RegExp> = {
  github: /^([\w.-]+\/[\w.-]+)\/issues\/(\d+)\/?$/,
  gitlab: /^([\w.-]+(?:\/[\w.-]+)+)\/-\/(?:issues|work_items)\/(\d+)\/?$/,
  bitbucket: /^([\w.-]+\/[\w.-]+)\/issues\/(\d+)(?:\/[^/]*)?\/?$/,
};

/** The issue `url` names on `provider` at `host`, or undefined when it is not one of its issue pages. */
export function issueOfUrl(provider: TaskProvider, host: string | null, url: URL): IssueRef | undefined {
  const base = new URL(webBase(provider, host));
  const basePath = base.pathname.replace(/\/+$/, '');
  if (url.origin !== base.origin || !url.pathname.startsWith(`${basePath}/`)) return undefined;
  const match = ISSUE_PATHS[provider].exec(decodeURIComponent(url.pathname.slice(basePath.length + 1)));
  if (!match || match[1]!.split('/').some((part) => /^\.{1,2}$/.test(part))) return undefined;
  return { repo: match[1]!, number: Number.parseInt(match[2]!, 10) };
}

/** The web address of an issue, as the provider shows it. */
export function issueUrl(provider: TaskProvider, host: string | null, issue: IssueRef): string {
  const base = webBase(provider, host);
  return provider === 'gitlab' ? `${base}/${issue.repo}/-/issues/${issue.number}` : `${base}/${issue.repo}/issues/${issue.number}`;
}

/** The most comments read, and the most of each text kept: enough to judge an issue by, within a model's context. */
const MAX_COMMENTS = 20;
const MAX_TEXT = 4000;
const clip = (value: string) => (value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value);

const encodedPath = (repo: string) => repo.split('/').map(encodeURIComponent).join('/');
/** A read whose failure leaves its part out (the repository's default branch, the comments): the issue itself is what matters. */
const orNothing = (read: Promise<{ body: unknown }>): Promise<unknown> =>
  read.then(
    ({ body }) => body,
    () => undefined,
  );

async function githubIssue(account: ProviderAccount<TaskProvider>, { repo, number }: IssueRef): Promise<Issue> {
  const path = `/repos/${encodedPath(repo)}`;
  const issue = asObject((await getJson(account, `${path}/issues/${number}`)).body);
  const [comments, repository] = await Promise.all([
    orNothing(getJson(account, `${path}/issues/${number}/comments?per_page=${MAX_COMMENTS}`)),
    orNothing(getJson(account, path)),
  ]);
  return {
    repo,
    number,
    title: text(issue.title) ?? '',
    body: clip(text(issue.body) ?? ''),
    labels: asList(issue.labels).flatMap((label) => text(label.name) ?? []),
    comments: asList(comments).map((c) => ({ author: text(asObject(c.user).login) ?? 'someone', body: clip(text(c.body) ?? '') })),
    url: text(issue.html_url),
    defaultBranch: text(asObject(repository).default_branch),
  };
}

async function gitlabIssue(account: ProviderAccount<TaskProvider>, { repo, number }: IssueRef): Promise<Issue> {
  const path = `/projects/${encodeURIComponent(repo)}`;
  const issue = asObject((await getJson(account, `${path}/issues/${number}`)).body);
  const [notes, project] = await Promise.all([
    orNothing(getJson(account, `${path}/issues/${number}/notes?sort=asc&order_by=created_at&per_page=${MAX_COMMENTS}`)),
    orNothing(getJson(account, path)),
  ]);
  return {
    repo,
    number,
    title: text(issue.title) ?? '',
    body: clip(text(issue.description) ?? ''),
    labels: Array.isArray(issue.labels) ? issue.labels.filter((label): label is string => typeof label === 'string') : [],
    // System notes ("changed the description") say nothing about the issue.
    comments: asList(notes)
      .filter((note) => note.system !== true)
      .map((note) => ({ author: text(asObject(note.author).username) ?? 'someone', body: clip(text(note.body) ?? '') })),
    url: text(issue.web_url),
    defaultBranch: text(asObject(project).default_branch),
  };
}

async function bitbucketIssue(account: ProviderAccount<TaskProvider>, { repo, number }: IssueRef): Promise<Issue> {
  const path = `/repositories/${encodedPath(repo)}`;
  const issue = asObject((await getJson(account, `${path}/issues/${number}`)).body);
  const [comments, repository] = await Promise.all([
    orNothing(getJson(account, `${path}/issues/${number}/comments?sort=created_on&pagelen=${MAX_COMMENTS}`)),
    orNothing(getJson(account, path)),
  ]);
  const raw = (value: unknown) => text(asObject(value).raw) ?? '';
  const user = (value: unknown) => text(asObject(value).display_name) ?? text(asObject(value).nickname) ?? 'someone';
  return {
    repo,
    number,
    title: text(issue.title) ?? '',
    body: clip(raw(issue.content)),
    // Bitbucket's issues have a kind and a priority instead of labels.
    labels: [text(issue.kind), text(issue.priority)].filter((label) => label !== null),
    comments: asList(asObject(comments).values)
      .filter((comment: Json) => raw(comment.content) !== '')
      .map((comment) => ({ author: user(comment.user), body: clip(raw(comment.content)) })),
    url: text(asObject(asObject(issue.links).html).href),
    defaultBranch: text(asObject(asObject(repository).mainbranch).name),
  };
}

/** The issue, its first comments and its repository's default branch; ProviderNotFound when there is none the token may see. */
export function fetchIssue(account: ProviderAccount<TaskProvider>, issue: IssueRef): Promise<Issue> {
  if (account.provider === 'github') return githubIssue(account, issue);
  if (account.provider === 'gitlab') return gitlabIssue(account, issue);
  return bitbucketIssue(account, issue);
}
