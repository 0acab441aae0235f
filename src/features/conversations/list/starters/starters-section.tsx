import { useLingui } from '@lingui/react/macro';
import { Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError } from '../../../../api/errors';
import { ErrorAlert } from '../../../../components/error-alert';
import type { StartTask } from '../../../../contract/conversations';
import type { SuggestedTask } from '../../../../contract/suggested-tasks';
import { startConversationMutation } from '../../../../queries/conversations';
import { suggestedTasksQuery } from '../../../../queries/suggested-tasks';
import { startingNoticeId } from '../starting-notice';
import { type AskedIssue, IssueStartDialog } from './issue-start-dialog';
import { IssueUrlForm } from './issue-url-form';
import { SuggestedTasksView } from './suggested-tasks-view';
import { taskKey, taskStartRequest, taskTitle } from './task-start';

export interface StartersSectionProps {
  /** Settings › Proactive conversation starters: tasks suggested from the user's repositories. */
  suggestions: boolean;
  /** Settings › Solvability analysis: an issue's estimate before it starts, and starting from a pasted issue. */
  solvability: boolean;
  onStarted: (task: StartTask) => void;
}

/**
 * What the Conversations page offers to start from, besides a blank conversation: the tasks its
 * user's git providers suggest, and an issue, estimated first. Loaded only when a setting asks for it.
 */
export function StartersSection({ suggestions, solvability, onStarted }: StartersSectionProps) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const tasks = useQuery({ ...suggestedTasksQuery(), enabled: suggestions });
  const start = useMutation(startConversationMutation(queryClient));
  const [starting, setStarting] = useState<string>();
  const [asked, setAsked] = useState<AskedIssue>();
  const [failed, setFailed] = useState<{ task: SuggestedTask; error: unknown }>();

  const begin = async (task: SuggestedTask) => {
    setStarting(taskKey(task));
    setFailed(undefined);
    try {
      const started = await start.mutateAsync(taskStartRequest(task));
      notifications.show({
        id: startingNoticeId(started.id),
        color: 'teal',
        title: t`Conversation starting`,
        message: t`It opens once it is ready.`,
      });
      setAsked(undefined);
      onStarted(started);
    } catch (error) {
      setFailed({ task, error });
    } finally {
      setStarting(undefined);
    }
  };
  const ask = (issue: AskedIssue) => {
    setFailed(undefined);
    setAsked(issue);
  };
  const failedTitle = failed ? taskTitle(failed.task) : '';
  const choose = (task: SuggestedTask) => {
    if (solvability && task.task_type === 'OPEN_ISSUE') ask({ task });
    else void begin(task);
  };

  return (
    <Stack gap="sm" mb="md">
      {failed && !asked && (
        <ErrorAlert title={t`Not started: ${failedTitle}`} onClose={() => setFailed(undefined)}>
          <Text size="sm">{describeError(failed.error)}</Text>
        </ErrorAlert>
      )}
      {suggestions && (
        <SuggestedTasksView
          tasks={tasks.data}
          error={tasks.error}
          onRetry={() => void tasks.refetch()}
          onStart={choose}
          starting={asked ? undefined : starting}
          estimateIssues={solvability}
        />
      )}
      {solvability && <IssueUrlForm onCheck={(url) => ask({ url })} />}
      {asked && (
        <IssueStartDialog
          asked={asked}
          onClose={() => {
            setAsked(undefined);
            setFailed(undefined);
          }}
          onStart={(task) => void begin(task)}
          starting={starting !== undefined}
          startError={failed?.error}
        />
      )}
    </Stack>
  );
}
