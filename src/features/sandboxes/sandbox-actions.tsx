import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Button, Group } from '@mantine/core';
import { IconDots, IconFileText, IconPlayerPause, IconPlayerPlay, IconRefresh, IconTrash } from '@tabler/icons-react';
import type { SandboxAction } from '../../api/sandboxes';
import { ActionMenu } from '../../components/action-menu';
import type { SandboxInfo } from '../../contract/sandboxes';
import { ACTION_LABEL, ACTION_ON } from './action-text';
import { canApply, hasEnded } from './actions';

export interface SandboxActionsProps {
  sandbox: SandboxInfo;
  /** An action on it is under way. */
  busy: boolean;
  /** A new sandbox from its spec is being started. */
  startingAgain: boolean;
  /** One from any row's spec is: one start at a time, so each gets its notice. */
  anyStartingAgain: boolean;
  onAction: (action: SandboxAction, sandbox: SandboxInfo) => void;
  onStartAgain: (sandbox: SandboxInfo) => void;
  /** Absent when the server has no logs route (OpenHands): no Logs item then. */
  onLogs?: (id: string) => void;
}

/**
 * A sandbox's main action in view, the rest in a menu. A running or paused one pauses or resumes;
 * one that failed or is gone has nothing to pause: it is deleted, or started afresh from its spec.
 * Accessible names carry the full id, so each row's buttons have names of their own.
 */
export function SandboxActions({ sandbox, busy, startingAgain, anyStartingAgain, onAction, onStartAgain, onLogs }: SandboxActionsProps) {
  const { t } = useLingui();
  const { id, sandbox_spec_id: specId } = sandbox;
  const ended = hasEnded(sandbox.status);
  const paused = sandbox.status === 'PAUSED';
  const primary: SandboxAction = paused ? 'resume' : 'pause';
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      {ended ? (
        <>
          {/* An icon, as Delete is in the other lists: "Start again" beside it keeps the column narrow enough for the rest. */}
          <ActionIcon
            variant="subtle"
            color="red"
            disabled={busy}
            onClick={() => onAction('delete', sandbox)}
            aria-label={t(ACTION_ON.delete.named(id))}
            title={t`Delete`}
          >
            <IconTrash size={16} />
          </ActionIcon>
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconRefresh size={14} />}
            loading={startingAgain}
            disabled={anyStartingAgain && !startingAgain}
            onClick={() => onStartAgain(sandbox)}
            aria-label={t`Start again ${id}`}
            title={t`Start a new sandbox from ${specId}`}
          >
            <Trans>Start again</Trans>
          </Button>
        </>
      ) : (
        <Button
          size="compact-sm"
          variant="default"
          leftSection={paused ? <IconPlayerPlay size={14} /> : <IconPlayerPause size={14} />}
          disabled={busy || !canApply(primary, sandbox.status)}
          onClick={() => onAction(primary, sandbox)}
          aria-label={t(ACTION_ON[primary].named(id))}
        >
          {t(ACTION_LABEL[primary].verb)}
        </Button>
      )}
      {(onLogs || !ended) && (
        <ActionMenu
          target={
            <Button size="compact-sm" variant="subtle" aria-label={t`More actions for ${id}`} px={6}>
              <IconDots size={16} />
            </Button>
          }
          items={[
            ...(onLogs ? [{ label: t`Logs`, icon: <IconFileText size={14} />, onClick: () => onLogs(id) }] : []),
            ...(ended
              ? []
              : [
                  {
                    label: t`Delete`,
                    icon: <IconTrash size={14} />,
                    danger: true,
                    disabled: busy,
                    onClick: () => onAction('delete', sandbox),
                  },
                ]),
          ]}
        />
      )}
    </Group>
  );
}
