import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import { useState } from 'react';
import { describeError } from '../../../api/errors';
import { ErrorAlert } from '../../../components/error-alert';
import type { ExecutionStatus } from '../../../contract/conversations';
import type { SandboxStatus } from '../../../contract/sandboxes';
import type { Confirmation as ConfirmationDecision } from '../../../contract/events';
import { Composer, type ComposerProps } from './composer';
import { RiskBadge } from './risk-badge';
import { type Continuation, type NoticeTexts, SandboxNotice } from '../shared/sandbox-notice';

export type AgentRequest = 'pause' | 'run' | 'approve' | 'reject';

export interface AgentControlsProps {
  executionStatus: ExecutionStatus | null;
  sandboxStatus: SandboxStatus;
  /** What each action waiting for approval does, one line each, and how risky the model rated it. */
  waiting: readonly { text: string; risk: string }[];
  /** Resolves once the message is sent (the composer then empties); rejects when it is not. */
  onSend: ComposerProps['onSend'];
  sending: boolean;
  sendError: unknown;
  onPause: () => void;
  onRun: () => void;
  onConfirm: (confirmation: ConfirmationDecision) => void;
  /** The pause, run or confirmation under way. */
  pending: AgentRequest | null;
  /** Why the last pause, run or confirmation failed. */
  requestError: unknown;
  onResumeSandbox: () => void;
  resumingSandbox: boolean;
  /** Going on in a new sandbox once its own is gone or failed; absent where the server cannot, or it is someone else's. */
  continuation?: Continuation;
  /**
   * Whose conversation it is, when it is not the signed-in user's (an admin looking at a member's):
   * only they may write to its agent, approve its actions or let it continue, so none is offered.
   */
  ownerName?: string;
}

/** What the conversation tab says of the agent while its sandbox does not run. */
const AGENT_NOTICE: NoticeTexts = {
  PAUSED: msg`The agent can neither work nor read messages until its sandbox runs again.`,
  STARTING: msg`Its sandbox is starting; you can write to the agent once it runs.`,
  ERROR: msg`Its sandbox failed, so the agent cannot go on there. Its logs are on the Sandboxes page.`,
  MISSING: msg`Its sandbox is gone, so the agent cannot go on there. Its events stay readable here.`,
};

function Confirmation({
  waiting,
  onConfirm,
  pending,
  ownerName,
}: Pick<AgentControlsProps, 'waiting' | 'onConfirm' | 'pending' | 'ownerName'>) {
  const { t } = useLingui();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const count = waiting.length;
  const asks =
    ownerName === undefined
      ? t`${plural(count, {
          one: 'The agent waits for your approval to run this action:',
          other: 'The agent waits for your approval to run these # actions:',
        })}`
      : t`${plural(count, {
          one: `The agent waits for ${ownerName}’s approval to run this action:`,
          other: `The agent waits for ${ownerName}’s approval to run these # actions:`,
        })}`;
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      style={{ borderColor: 'var(--mantine-color-orange-5)' }}
      role="region"
      aria-label={t`Waiting for approval`}
    >
      <Stack gap="xs">
        <Text size="sm" fw={600}>
          {asks}
        </Text>
        {waiting.map(({ text, risk }, index) => (
          <Group key={index} gap="xs" wrap="nowrap">
            <Text size="sm" ff="monospace" truncate="end" title={text}>
              {text}
            </Text>
            <RiskBadge risk={risk} />
          </Group>
        ))}
        {ownerName !== undefined ? null : rejecting ? (
          <Group align="flex-end">
            <TextInput
              label={t`Why not? (optional, the agent reads it)`}
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
              maxLength={2000}
              style={{ flex: 1 }}
              data-autofocus
            />
            <Button
              color="red"
              loading={pending === 'reject'}
              onClick={() => onConfirm({ accept: false, reason: reason.trim() || undefined })}
            >
              <Trans>Confirm rejection</Trans>
            </Button>
            <Button variant="default" onClick={() => setRejecting(false)}>
              <Trans>Cancel</Trans>
            </Button>
          </Group>
        ) : (
          <Group>
            <Button
              color="teal"
              loading={pending === 'approve'}
              disabled={pending === 'reject'}
              onClick={() => onConfirm({ accept: true })}
            >
              <Trans>Approve</Trans>
            </Button>
            <Button variant="default" color="red" disabled={pending === 'approve'} onClick={() => setRejecting(true)}>
              <Trans>Reject</Trans>
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * What a person can do with the agent: reply to it, stop or continue it, approve or reject what it
 * wants to run. While its sandbox does not run, there is no agent to talk to: it says so, and
 * offers to resume a paused one.
 */
export function AgentControls(props: AgentControlsProps) {
  const { t } = useLingui();
  const { executionStatus: status, pending } = props;
  if (props.sandboxStatus !== 'RUNNING') {
    return (
      <SandboxNotice
        status={props.sandboxStatus}
        says={AGENT_NOTICE}
        onResume={props.onResumeSandbox}
        resuming={props.resumingSandbox}
        continuation={props.continuation}
      />
    );
  }
  const canStop = status === 'running' || status === 'waiting_for_confirmation';
  const { ownerName } = props;
  const theirs = ownerName !== undefined;
  return (
    <Stack gap="sm">
      {Boolean(props.requestError) && <ErrorAlert title={t`Not done`}>{describeError(props.requestError)}</ErrorAlert>}
      {status === 'waiting_for_confirmation' && props.waiting.length > 0 && (
        <Confirmation waiting={props.waiting} onConfirm={props.onConfirm} pending={pending} ownerName={ownerName} />
      )}
      {status === 'stuck' && (
        <Alert color="red" variant="light" title={t`The agent is stuck`}>
          <Trans>It kept repeating itself: the same step with the same result.</Trans>{' '}
          {theirs ? (
            <Trans>{ownerName} can tell it what to do differently.</Trans>
          ) : (
            <Trans>Tell it below what to do differently; your message gets it going again.</Trans>
          )}
        </Alert>
      )}
      {(canStop || (status === 'paused' && !theirs)) && (
        <Group>
          {canStop ? (
            <Button
              variant="default"
              color="red"
              leftSection={<IconPlayerStop size={16} />}
              loading={pending === 'pause'}
              onClick={props.onPause}
            >
              <Trans>Stop</Trans>
            </Button>
          ) : (
            <Button leftSection={<IconPlayerPlay size={16} />} loading={pending === 'run'} onClick={props.onRun}>
              <Trans>Continue</Trans>
            </Button>
          )}
          <Text size="sm" c="dimmed">
            {!canStop
              ? t`The agent is paused.`
              : theirs
                ? t`Stop pauses the agent.`
                : t`Stop pauses the agent; Continue picks up where it stopped.`}
          </Text>
        </Group>
      )}
      {theirs ? (
        <Alert color="gray" variant="light" title={t`${ownerName}’s conversation`}>
          <Trans>
            Only {ownerName} can write to its agent, approve or reject its actions, let it continue or read its workspace: it runs with
            their secrets.
          </Trans>{' '}
          {status === 'paused' ? (
            <Trans>You can stop it (it is paused now), pause its sandbox or delete it.</Trans>
          ) : (
            <Trans>You can stop it, pause its sandbox or delete it.</Trans>
          )}
        </Alert>
      ) : (
        <Composer onSend={props.onSend} sending={props.sending} sendError={props.sendError} />
      )}
    </Stack>
  );
}
