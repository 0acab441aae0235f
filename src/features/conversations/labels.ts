import type { ConversationSortOrder, ExecutionStatus, TaskStatus } from '../../contract/conversations';
import { PROVIDER_NAMES, isProvider } from '../../contract/secrets';

/** The steps of a start, in order, as a person reads them. */
export const STEPS: { status: TaskStatus; label: string }[] = [
  { status: 'WORKING', label: 'Getting ready' },
  { status: 'WAITING_FOR_SANDBOX', label: 'Waiting for the sandbox' },
  { status: 'PREPARING_REPOSITORY', label: 'Preparing the repository' },
  { status: 'RUNNING_SETUP_SCRIPT', label: 'Running the setup script' },
  { status: 'SETTING_UP_GIT_HOOKS', label: 'Setting up git hooks' },
  { status: 'SETTING_UP_SKILLS', label: 'Setting up skills' },
  { status: 'STARTING_CONVERSATION', label: 'Starting the conversation' },
];

export const EXECUTION: Record<ExecutionStatus, { label: string; color: string }> = {
  idle: { label: 'Idle', color: 'gray' },
  running: { label: 'Working', color: 'blue' },
  paused: { label: 'Paused', color: 'yellow' },
  waiting_for_confirmation: { label: 'Waiting for you', color: 'orange' },
  finished: { label: 'Finished', color: 'teal' },
  error: { label: 'Error', color: 'red' },
  stuck: { label: 'Stuck', color: 'red' },
};

export const SORT_OPTIONS: { value: ConversationSortOrder; label: string }[] = [
  { value: 'CREATED_AT_DESC', label: 'Newest first' },
  { value: 'CREATED_AT', label: 'Oldest first' },
  { value: 'UPDATED_AT_DESC', label: 'Recently updated' },
  { value: 'UPDATED_AT', label: 'Least recently updated' },
  { value: 'TITLE', label: 'Title A–Z' },
  { value: 'TITLE_DESC', label: 'Title Z–A' },
];

/** "octo/hello@main (GitHub)", or `null` without a repository. */
export function repositoryLabel(conversation: {
  selected_repository: string | null;
  selected_branch: string | null;
  git_provider: string | null;
}) {
  if (!conversation.selected_repository) return null;
  const branch = conversation.selected_branch ? `@${conversation.selected_branch}` : '';
  const provider =
    conversation.git_provider && isProvider(conversation.git_provider) ? ` (${PROVIDER_NAMES[conversation.git_provider]})` : '';
  return `${conversation.selected_repository}${branch}${provider}`;
}
