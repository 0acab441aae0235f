import { useLingui } from '@lingui/react/macro';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { describeError } from '../../../api/errors';
import type { StartTask } from '../../../contract/conversations';
import { startConversationMutation } from '../../../queries/conversations';

/**
 * Starting a failed start's request again: `onStarted` gets the failed task and the new one;
 * `retryingTask` is the one of `tasks` whose retry is under way.
 */
export function useRetryStart(tasks: readonly StartTask[], onStarted: (failed: StartTask, started: StartTask) => void) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const retry = useMutation(startConversationMutation(queryClient));
  return {
    retry: (task: StartTask) =>
      retry.mutate(task.request, {
        onSuccess: (started) => onStarted(task, started),
        onError: (error) => notifications.show({ color: 'red', title: t`Could not start it again`, message: describeError(error) }),
      }),
    retryingTask: retry.isPending ? tasks.find((task) => task.request === retry.variables)?.id : undefined,
  };
}
