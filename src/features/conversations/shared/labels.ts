import type { ExecutionStatus, TaskStatus } from '../../../contract/conversations';

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
