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

const titleOf = (task: StartTask) => {
  const text = task.request.initial_message?.content.find((part) => part.type === 'text');
  return (
    task.request.title ||
    (text?.type === 'text' ? text.text.split('\n', 1)[0] : '') ||
    task.request.selected_repository ||
    'New conversation'
  );
};

/** A start under way, step by step; one that failed says why, and can be tried again by whoever started it. */
export function TaskProgress({ task, onRetry, onDismiss, retrying, ownerName }: TaskProgressProps) {
  const step = STEPS.findIndex((s) => s.status === task.status);
  const failed = task.status === 'ERROR';
  return (
    <Paper withBorder p="sm" radius="md" data-task-id={task.id} aria-label={`Start of ${titleOf(task)}`} role="group">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} size="sm" truncate>
            {titleOf(task)}
            {ownerName !== undefined && (
              <Text span size="sm" c="dimmed" fw={400}>
                {' '}
                · {ownerName}’s
              </Text>
            )}
          </Text>
          {failed ? (
            <Group gap="xs" wrap="nowrap">
              <Button size="xs" variant="default" onClick={() => onDismiss(task)}>
                Dismiss
              </Button>
              {ownerName === undefined && (
                <Button size="xs" onClick={() => onRetry(task)} loading={retrying}>
                  Retry
                </Button>
              )}
            </Group>
          ) : (
            <Text size="sm" c="dimmed" data-step={task.status}>
              Step {step + 1} of {STEPS.length}: {STEPS[step]?.label}
            </Text>
          )}
        </Group>
        {failed ? (
          <ErrorAlert>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {task.detail ?? 'The start failed'}
            </Text>
          </ErrorAlert>
        ) : (
          <Progress value={((step + 1) / (STEPS.length + 1)) * 100} animated aria-label={`Step ${step + 1} of ${STEPS.length}`} />
        )}
      </Stack>
    </Paper>
  );
}
