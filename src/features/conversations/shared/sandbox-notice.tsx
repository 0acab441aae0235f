import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { describeError } from '../../../api/errors';
import { ErrorAlert } from '../../../components/error-alert';
import type { StartTask } from '../../../contract/conversations';
import type { SandboxStatus } from '../../../contract/sandboxes';
import { TaskProgress } from './task-progress';

export interface Continuation {
  onContinue: () => void;
  /** The start that makes the new sandbox, once asked for (until it is READY or dismissed). */
  task: StartTask | null;
  onDismiss: () => void;
  /** The request for it is under way. */
  asking: boolean;
  /** Why the request was refused. */
  error: unknown;
}

/** What a place says while the sandbox does not run, by its status. */
export type NoticeTexts = Record<Exclude<SandboxStatus, 'RUNNING'>, MessageDescriptor>;

/**
 * A conversation's sandbox that does not run, said where it matters (`says`): a paused one offers
 * Resume; a failed or lost one offers to go on in a new sandbox, and follows that start.
 */
export function SandboxNotice({
  status,
  says,
  onResume,
  resuming,
  continuation,
}: {
  status: Exclude<SandboxStatus, 'RUNNING'>;
  says: NoticeTexts;
  onResume: () => void;
  resuming: boolean;
  continuation: Continuation | undefined;
}) {
  const { t, i18n } = useLingui();
  if (status === 'PAUSED')
    return (
      <Alert color="yellow" variant="light" title={t`Its sandbox is paused`}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{i18n._(says.PAUSED)}</Text>
          <Button size="xs" onClick={onResume} loading={resuming}>
            <Trans>Resume sandbox</Trans>
          </Button>
        </Stack>
      </Alert>
    );
  const lost = status === 'ERROR' || status === 'MISSING';
  if (lost && continuation?.task && continuation.task.status !== 'READY') {
    return (
      <TaskProgress
        task={continuation.task}
        onRetry={continuation.onContinue}
        onDismiss={continuation.onDismiss}
        retrying={continuation.asking}
      />
    );
  }
  return (
    <Alert color={status === 'STARTING' ? 'blue' : 'gray'} variant="light">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{i18n._(says[status])}</Text>
        {lost && continuation && (
          <>
            <Text size="sm" c="dimmed">
              <Trans>
                A new sandbox starts, with the repository cloned again at its branch, and the agent goes on with this conversation as its
                history. What the old workspace held and was not pushed does not carry over.
              </Trans>
            </Text>
            {Boolean(continuation.error) && <ErrorAlert title={t`Not continued`}>{describeError(continuation.error)}</ErrorAlert>}
            <Button size="xs" onClick={continuation.onContinue} loading={continuation.asking}>
              <Trans>Continue in a new sandbox</Trans>
            </Button>
          </>
        )}
      </Stack>
    </Alert>
  );
}
