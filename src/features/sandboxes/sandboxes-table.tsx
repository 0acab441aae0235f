import { Trans, useLingui } from '@lingui/react/macro';
import { Checkbox, Table, Text } from '@mantine/core';
import { CopyValue } from '../../components/copy-value';
import { RelativeTime } from '../../components/relative-time';
import { RowActionsHeader } from '../../components/row-actions';
import { rowSelection } from '../../components/row-selection';
import { shortId } from '../../components/short-id';
import { AgentServerAccess } from './agent-server';
import { ResourceUse } from './resource-use';
import { SandboxActions } from './sandbox-actions';
import type { SandboxListProps } from './sandbox-list';
import { SandboxStatus } from './sandbox-status';
import { UsedBy } from './used-by';
import { ownerName } from '../../components/owners';

// A spec's name and an age read as one piece each; the id (with its conversations) and the status's reason wrap.
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

export function SandboxesTable({
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
    <Table.ScrollContainer minWidth={900} type="native" pos="relative">
      <Table highlightOnHover aria-label={t`Sandboxes`} verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <Checkbox aria-label={t`Select all sandboxes on this page`} checked={all} indeterminate={some} onChange={toggleAll} />
            </Table.Th>
            <Table.Th miw={160}>ID</Table.Th>
            {owners && (
              <Table.Th>
                <Trans>Owner</Trans>
              </Table.Th>
            )}
            <Table.Th>
              <Trans>Spec</Trans>
            </Table.Th>
            <Table.Th miw={140}>
              <Trans>Status</Trans>
            </Table.Th>
            {/* Only in a wide window: below it every other column, and the actions, stay in view. */}
            {resources && (
              <Table.Th visibleFrom="xl">
                <Trans>Resources</Trans>
              </Table.Th>
            )}
            <Table.Th>
              <Trans>Created</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Agent server</Trans>
            </Table.Th>
            <RowActionsHeader />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((sandbox) => {
            const busy = inFlight.get(sandbox.id);
            const { id } = sandbox;
            return (
              <Table.Tr
                key={sandbox.id}
                data-sandbox-id={sandbox.id}
                bg={selected.has(sandbox.id) ? 'var(--mantine-primary-color-light)' : undefined}
              >
                <Table.Td>
                  <Checkbox aria-label={t`Select ${id}`} checked={selected.has(sandbox.id)} onChange={() => toggle(sandbox.id)} />
                </Table.Td>
                <Table.Td>
                  <CopyValue value={sandbox.id} display={shortId(sandbox.id)} label={t`id of ${id}`} />
                  <UsedBy sandboxId={sandbox.id} conversations={usedBy?.get(sandbox.id)} />
                </Table.Td>
                {owners && (
                  <Table.Td>
                    <Text size="sm">{ownerName(owners, sandbox.created_by_user_id)}</Text>
                  </Table.Td>
                )}
                <Table.Td style={NO_WRAP}>
                  <Text size="sm">{sandbox.sandbox_spec_id}</Text>
                </Table.Td>
                <Table.Td>
                  <SandboxStatus sandbox={sandbox} inFlight={busy} runtime={runtime} />
                </Table.Td>
                {resources && (
                  <Table.Td visibleFrom="xl">
                    <ResourceUse look={resources.get(id)} sandboxId={id} onOpen={onResources && (() => onResources(id))} />
                  </Table.Td>
                )}
                <Table.Td style={NO_WRAP}>
                  <RelativeTime iso={sandbox.created_at} />
                </Table.Td>
                <Table.Td>
                  <AgentServerAccess sandbox={sandbox} />
                </Table.Td>
                <Table.Td>
                  <SandboxActions
                    sandbox={sandbox}
                    busy={busy !== undefined}
                    startingAgain={startingAgainId === sandbox.id}
                    anyStartingAgain={startingAgainId !== undefined}
                    onAction={onAction}
                    onStartAgain={onStartAgain}
                    onLogs={onLogs}
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
