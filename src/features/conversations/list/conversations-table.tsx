import { rowSelection } from '../../../components/row-selection';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Checkbox, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { RelativeTime } from '../../../components/relative-time';
import { SandboxStatusBadge } from '../../../components/sandbox-status-badge';
import { WindowRowsBody } from '../../../components/window-rows-body';
import { useWindowRows } from '../../../components/use-window-rows';
import type { AppConversation } from '../../../contract/conversations';
import { ownerName } from '../../../components/owners';
import type { Owner } from '../../../contract/team';
import { ExecutionBadge } from '../shared/execution-badge';
import { repositoryLabel } from './labels';

interface ConversationsTableProps {
  items: AppConversation[];
  selected: Set<string>;
  onSelect: (selected: Set<string>) => void;
  /** The team, for an admin: whose each conversation is. */
  owners?: readonly Owner[];
}

/** Only the rows in view are rendered: "Load more" adds 50 at a time, up to thousands. */
export function ConversationsTable({ items, selected, onSelect, owners }: ConversationsTableProps) {
  const { t } = useLingui();
  const { all, some, toggle, toggleAll } = rowSelection(
    items.map((item) => item.id),
    selected,
    onSelect,
  );
  const { bodyRef, rows, measureRow, spacers } = useWindowRows(items.length, { estimateSize: 45, getKey: (index) => items[index]!.id });
  return (
    <Table.ScrollContainer minWidth={720} type="native" pos="relative">
      <Table aria-label={t`Conversations`} highlightOnHover verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={36}>
              <Checkbox aria-label={t`Select all conversations`} checked={all} indeterminate={some} onChange={toggleAll} />
            </Table.Th>
            <Table.Th>
              <Trans>Title</Trans>
            </Table.Th>
            {owners && (
              <Table.Th>
                <Trans>Owner</Trans>
              </Table.Th>
            )}
            <Table.Th>
              <Trans>Repository</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Sandbox</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Agent</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Created</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Updated</Trans>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <WindowRowsBody bodyRef={bodyRef} spacers={spacers}>
          {rows.map(({ index, key }) => {
            const item = items[index]!;
            const name = item.title ?? item.id;
            return (
              <Table.Tr key={key} data-conversation-id={item.id} data-index={index} ref={measureRow}>
                <Table.Td>
                  <Checkbox aria-label={t`Select ${name}`} checked={selected.has(item.id)} onChange={() => toggle(item.id)} />
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={`/conversations/${item.id}`} fw={500}>
                    {item.title ?? item.id}
                  </Anchor>
                </Table.Td>
                {owners && (
                  <Table.Td>
                    <Text size="sm">{ownerName(owners, item.created_by_user_id)}</Text>
                  </Table.Td>
                )}
                <Table.Td>
                  <Text size="sm" c={item.selected_repository ? undefined : 'dimmed'}>
                    {repositoryLabel(item) ?? t`No repository`}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <SandboxStatusBadge status={item.sandbox_status} />
                </Table.Td>
                <Table.Td>
                  <ExecutionBadge status={item.execution_status} />
                </Table.Td>
                <Table.Td>
                  <RelativeTime iso={item.created_at} />
                </Table.Td>
                <Table.Td>
                  <RelativeTime iso={item.updated_at} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </WindowRowsBody>
      </Table>
    </Table.ScrollContainer>
  );
}
