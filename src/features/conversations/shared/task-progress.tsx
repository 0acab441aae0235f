import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import type { StartTask } from '../../../contract/conversations';
import { ErrorAlert } from '../../../components/error-alert';
import { STEPS } from './labels';

interface TaskProgressProps {
  task: StartTask;
  onRetry: (task: StartTask) => void;
  onDismiss: (task: StartTask) => void;
  retrying?: boolean;
  /** Whose start it is, when it is not the signed-in user's: named, and not retried here (it would run as you). */
  ownerName?: string;
}

/** What the start asked for, as a title; `null` when it asked for nothing that names it. */
const titleOf = (task: StartTask) => {
  const text = task.request.initial_message?.content.find((part) => part.type === 'text');
  return task.request.title || (text?.type === 'text' ? text.text.split('\n', 1)[0] : '') || task.request.selected_repository || null;
};

/** A start under way, step by step; one that failed says why, and can be tried again by whoever started it. */
export function TaskProgress({ task, onRetry, onDismiss, retrying, ownerName }: TaskProgressProps) {
  const { t, i18n } = useLingui();
  const step = STEPS.findIndex((s) => s.status === task.status);
  const failed = task.status === 'ERROR';
  const title = titleOf(task) ?? t`New conversation`;
  const number = step + 1;
  const total = STEPS.length;
  const stepLabel = STEPS[step] ? i18n._(STEPS[step].label) : '';
  return (
    <Paper withBorder p="sm" radius="md" data-task-id={task.id} aria-label={t`Start of ${title}`} role="group">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} size="sm" truncate>
            {title}
            {ownerName !== undefined && (
              <Text span size="sm" c="dimmed" fw={400}>
                {' '}
                <Trans>· {ownerName}’s</Trans>
              </Text>
            )}
          </Text>
          {failed ? (
            <Group gap="xs" wrap="nowrap">
              <Button size="xs" variant="default" onClick={() => onDismiss(task)}>
                <Trans>Dismiss</Trans>
              </Button>
              {ownerName === undefined && (
                <Button size="xs" onClick={() => onRetry(task)} loading={retrying}>
                  <Trans>Retry</Trans>
                </Button>
              )}
            </Group>
          ) : (
            <Text size="sm" c="dimmed" data-step={task.status}>
              <Trans>
                Step {number} of {total}: {stepLabel}
              </Trans>
            </Text>
          )}
        </Group>
        {failed ? (
          <ErrorAlert>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {task.detail ?? t`The start failed`}
            </Text>
          </ErrorAlert>
        ) : (
          <Progress value={(number / (total + 1)) * 100} animated aria-label={t`Step ${number} of ${total}`} />
        )}
      </Stack>
    </Paper>
  );
}
