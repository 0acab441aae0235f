import type { SolvabilityEstimate, SuggestedTask } from '../../../../contract/suggested-tasks';

/** A suggested task as the server sends it, with `overrides`. */
export const suggestedTask = (overrides: Partial<SuggestedTask> = {}): SuggestedTask => ({
  git_provider: 'github',
  task_type: 'FAILING_CHECKS',
  repo: 'ada/engine',
  issue_number: 12,
  title: 'Faster engine',
  branch: 'feature/fast-engine',
  url: 'https://github.com/ada/engine/pull/12',
  prompt: 'You are working on Pull Request #12 in repository ada/engine. You need to fix the failing CI checks.',
  ...overrides,
});

export const issueTask = suggestedTask({
  task_type: 'OPEN_ISSUE',
  issue_number: 4,
  title: 'Punch cards jam in the reader',
  branch: 'main',
  url: 'https://github.com/ada/engine/issues/4',
  prompt: 'You are working on Issue #4 in repository ada/engine. Your goal is to fix the issue.',
});

export const estimateOf = (overrides: Partial<SolvabilityEstimate> = {}): SolvabilityEstimate => ({
  task: issueTask,
  score: 0.82,
  difficulty: 'EASY',
  summary: 'The jam is reproducible with one card.',
  actionable_feedback: ['Attach the card that jams'],
  positive_feedback: ['Clear steps to reproduce', 'Expected and actual behaviour'],
  model: 'stub-model',
  ...overrides,
});
