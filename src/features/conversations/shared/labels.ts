import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ExecutionStatus, TaskStatus } from '../../../contract/conversations';

/** The steps of a start, in order, as a person reads them. */
export const STEPS: { status: TaskStatus; label: MessageDescriptor }[] = [
  { status: 'WORKING', label: msg`Getting ready` },
  { status: 'WAITING_FOR_SANDBOX', label: msg`Waiting for the sandbox` },
  { status: 'PREPARING_REPOSITORY', label: msg`Preparing the repository` },
  { status: 'RUNNING_SETUP_SCRIPT', label: msg`Running the setup script` },
  { status: 'SETTING_UP_GIT_HOOKS', label: msg`Setting up git hooks` },
  { status: 'SETTING_UP_SKILLS', label: msg`Setting up skills` },
  { status: 'STARTING_CONVERSATION', label: msg`Starting the conversation` },
];

export const EXECUTION: Record<ExecutionStatus, { label: MessageDescriptor; color: string }> = {
  idle: { label: msg`Idle`, color: 'gray' },
  running: { label: msg`Working`, color: 'blue' },
  paused: { label: msg`Paused`, color: 'yellow' },
  waiting_for_confirmation: { label: msg`Waiting for you`, color: 'orange' },
  finished: { label: msg`Finished`, color: 'teal' },
  error: { label: msg`Error`, color: 'red' },
  stuck: { label: msg`Stuck`, color: 'red' },
};
