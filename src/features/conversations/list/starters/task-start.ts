import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { i18n } from '@lingui/core';
import type { StartRequestInput } from '../../../../contract/conversations';
import type { SuggestedTask, SuggestedTaskType } from '../../../../contract/suggested-tasks';

/** What each task asks of the agent, as OpenHands' home names it. */
export const TASK_LABELS: Record<SuggestedTaskType, MessageDescriptor> = {
  FAILING_CHECKS: msg`Fix failing checks`,
  MERGE_CONFLICTS: msg`Resolve merge conflicts`,
  UNRESOLVED_COMMENTS: msg`Resolve review comments`,
  OPEN_ISSUE: msg`Fix issue`,
  OPEN_PR: msg`Pull request`,
};

/** One task among the others, for a key and for "which one is starting". */
export const taskKey = (task: SuggestedTask) => `${task.git_provider}:${task.repo}:${task.task_type}:${task.issue_number}`;

/** The conversation's title: what to do, then the pull request's or issue's own. */
export const taskTitle = (task: SuggestedTask) => {
  const label = i18n._(TASK_LABELS[task.task_type]);
  const { title } = task;
  return t`${label}: ${title}`.slice(0, 200);
};

/**
 * The start of a conversation that does the task: its prompt as the first message, on the task's
 * repository and branch (the pull request's own, the default one for an issue), the pull
 * request's number with it, as a suggested task's start.
 */
export function taskStartRequest(task: SuggestedTask): StartRequestInput {
  return {
    ...(task.prompt ? { initial_message: { role: 'user', content: [{ type: 'text', text: task.prompt }], run: true } } : {}),
    selected_repository: task.repo,
    ...(task.branch ? { selected_branch: task.branch } : {}),
    git_provider: task.git_provider,
    title: taskTitle(task),
    trigger: 'suggested_task',
    pr_number: task.task_type === 'OPEN_ISSUE' ? [] : [task.issue_number],
  };
}
