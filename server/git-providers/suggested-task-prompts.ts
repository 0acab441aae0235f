import type { SuggestedTaskType, TaskProvider } from '../../src/contract/suggested-tasks';

/*
 * The first message of a conversation started from a suggested task: OpenHands' templates
 * (`openhands/integrations/templates/suggested_task/*.j2`, `SuggestedTask.get_prompt_for_task`
 * at the pinned commit), word for word, with each provider's terms. The agent's sandbox has the
 * provider's token in the variable they name.
 */

interface ProviderTerms {
  requestType: string;
  requestTypeShort: string;
  apiName: string;
  tokenEnvVar: string;
  ciSystem: string;
  ciProvider: string;
  requestVerb: string;
}

const TERMS: Record<TaskProvider, ProviderTerms> = {
  github: {
    requestType: 'Pull Request',
    requestTypeShort: 'PR',
    apiName: 'GitHub API',
    tokenEnvVar: 'GITHUB_TOKEN',
    ciSystem: 'GitHub Actions',
    ciProvider: 'GitHub',
    requestVerb: 'pull request',
  },
  gitlab: {
    requestType: 'Merge Request',
    requestTypeShort: 'MR',
    apiName: 'GitLab API',
    tokenEnvVar: 'GITLAB_TOKEN',
    ciSystem: 'CI pipelines',
    ciProvider: 'GitLab',
    requestVerb: 'merge request',
  },
  bitbucket: {
    requestType: 'Pull Request',
    requestTypeShort: 'PR',
    apiName: 'Bitbucket API',
    tokenEnvVar: 'BITBUCKET_TOKEN',
    ciSystem: 'Bitbucket Pipelines',
    ciProvider: 'Bitbucket',
    requestVerb: 'pull request',
  },
};

type Template = (terms: ProviderTerms, issue: number, repo: string) => string;

const checkOut = (t: ProviderTerms) =>
  `Check out the branch from that ${t.requestVerb} and look at the diff versus the base branch of the ${t.requestTypeShort} to understand the ${t.requestTypeShort}'s intention.`;

const TEMPLATES: Record<Exclude<SuggestedTaskType, 'OPEN_PR'>, Template> = {
  MERGE_CONFLICTS: (t, issue, repo) =>
    [
      `You are working on ${t.requestType} #${issue} in repository ${repo}. You need to fix the merge conflicts.`,
      `Use the ${t.apiName} with the ${t.tokenEnvVar} environment variable to retrieve the ${t.requestTypeShort} details.`,
      checkOut(t),
      "Then resolve the merge conflicts. If you aren't sure what the right solution is, look back through the commit history at the commits that introduced the conflict and resolve them accordingly.",
    ].join('\n'),
  FAILING_CHECKS: (t, issue, repo) =>
    [
      `You are working on ${t.requestType} #${issue} in repository ${repo}. You need to fix the failing CI checks.`,
      `Use the ${t.apiName} with the ${t.tokenEnvVar} environment variable to retrieve the ${t.requestTypeShort} details.`,
      checkOut(t),
      `Then use the ${t.apiName} to look at the ${t.ciSystem} that are failing on the most recent commit. Try and reproduce the failure locally.`,
      `Get things working locally, then push your changes. Sleep for 30 seconds at a time until the ${t.ciProvider} ${t.ciSystem.toLowerCase()} have run again.`,
      'If they are still failing, repeat the process.',
    ].join('\n'),
  UNRESOLVED_COMMENTS: (t, issue, repo) =>
    [
      `You are working on ${t.requestType} #${issue} in repository ${repo}. You need to resolve the remaining comments from reviewers.`,
      `Use the ${t.apiName} with the ${t.tokenEnvVar} environment variable to retrieve the ${t.requestTypeShort} details.`,
      checkOut(t),
      `Then use the ${t.apiName} to retrieve all the feedback on the ${t.requestTypeShort} so far.`,
      "If anything hasn't been addressed, address it and commit your changes back to the same branch.",
    ].join('\n'),
  OPEN_ISSUE: (t, issue, repo) =>
    [
      `You are working on Issue #${issue} in repository ${repo}. Your goal is to fix the issue.`,
      `Use the ${t.apiName} with the ${t.tokenEnvVar} environment variable to retrieve the issue details and any comments on the issue.`,
      'Then check out a new branch and investigate what changes will need to be made.',
      `Finally, make the required changes and open up a ${t.requestVerb}. Be sure to reference the issue in the ${t.requestTypeShort} description.`,
    ].join('\n'),
};

/** The task's first message; none for `OPEN_PR`, which OpenHands has no template for (and never suggests). */
export function promptForTask(provider: TaskProvider, type: SuggestedTaskType, issueNumber: number, repo: string): string | null {
  return type === 'OPEN_PR' ? null : TEMPLATES[type](TERMS[provider], issueNumber, repo);
}
