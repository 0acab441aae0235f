import { Trans, useLingui } from '@lingui/react/macro';
import { Checkbox, Group, Paper, Stack, Text } from '@mantine/core';
import { CopyValue } from '../../components/copy-value';
import { RelativeTime } from '../../components/relative-time';
import { rowSelection } from '../../components/row-selection';
import { shortId } from '../../components/short-id';
import { AgentServerUrl, agentServerUrl, SessionKeyLine } from './agent-server';
import { ResourceUse } from './resource-use';
import { SandboxActions } from './sandbox-actions';
import type { SandboxListProps } from './sandbox-list';
import { ownerName } from '../../components/owners';
import { StatusReason } from './sandbox-status';
import { StatusBadge } from './status-badge';
import { UsedBy } from './used-by';

/** The sandboxes on a narrow screen: a card each, its status and main action in view. */
export function SandboxCards({
  items,
  inFlight,
  startingAgainId,
  runtime,
  selected,
  onSelect,
  onAction,
  onStartAgain,
  onLogs,
  usedBy,
  owners,
  resources,
  onResources,
}: SandboxListProps) {
  const { t } = useLingui();
  const { all, some, toggle, toggleAll } = rowSelection(
    items.map((sandbox) => sandbox.id),
    selected,
    onSelect,
  );
  return (
    <Stack gap="xs">
      <Checkbox
        label={t`Select all`}
        aria-label={t`Select all sandboxes on this page`}
        checked={all}
        indeterminate={some}
        onChange={toggleAll}
        ml="sm"
      />
      <Stack component="ul" aria-label={t`Sandboxes`} gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
        {items.map((sandbox) => {
          const busy = inFlight.get(sandbox.id);
          const { id } = sandbox;
          return (
            <Paper
              component="li"
              key={sandbox.id}
              withBorder
              radius="md"
              p="sm"
              data-sandbox-id={sandbox.id}
              bg={selected.has(sandbox.id) ? 'var(--mantine-primary-color-light)' : undefined}
            >
              <Stack gap={6}>
                <Group justify="space-between" wrap="nowrap">
                  <Group gap="xs" wrap="nowrap">
                    <Checkbox aria-label={t`Select ${id}`} checked={selected.has(sandbox.id)} onChange={() => toggle(sandbox.id)} />
                    <CopyValue value={sandbox.id} display={shortId(sandbox.id)} label={t`id of ${id}`} />
                  </Group>
                  <StatusBadge status={sandbox.status} inFlight={busy} />
                </Group>
                <Text size="sm" c="dimmed">
                  {owners && `${ownerName(owners, sandbox.created_by_user_id)} · `}
                  {sandbox.sandbox_spec_id} · <RelativeTime iso={sandbox.created_at} />
                </Text>
                <StatusReason sandbox={sandbox} inFlight={busy} runtime={runtime} />
                <UsedBy sandboxId={sandbox.id} conversations={usedBy?.get(sandbox.id)} />
                {resources?.get(id)?.latest && (
                  <ResourceUse look={resources.get(id)} sandboxId={id} onOpen={onResources && (() => onResources(id))} />
                )}
                {agentServerUrl(sandbox) && (
                  <Group gap="md" wrap="wrap">
                    <Group gap={4} wrap="nowrap">
                      <Text size="xs" c="dimmed">
                        <Trans>Agent server</Trans>
                      </Text>
                      <AgentServerUrl sandbox={sandbox} />
                    </Group>
                    <SessionKeyLine sandbox={sandbox} />
                  </Group>
                )}
                <SandboxActions
                  sandbox={sandbox}
                  busy={busy !== undefined}
                  startingAgain={startingAgainId === sandbox.id}
                  anyStartingAgain={startingAgainId !== undefined}
                  onAction={onAction}
                  onStartAgain={onStartAgain}
                  onLogs={onLogs}
                />
              </Stack>
            </Paper>
          );
        })}
      </Stack>
    </Stack>
  );
}
