import { Badge, Code, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { IconPencil, IconPlugConnected, IconTrash } from '@tabler/icons-react';
import { type RowActionItem, RowActions, RowActionsHeader } from '../../components/row-actions';
import { useWindowRows } from '../../components/use-window-rows';
import { WindowCardsList } from '../../components/window-cards-list';
import { WindowRowsBody } from '../../components/window-rows-body';
import { KIND_LABEL, type McpServerRow } from './mcp-model';

/** What a row's actions open. */
export type ServerAction = { type: 'edit' | 'delete' | 'test'; row: McpServerRow };

interface ServerListProps {
  rows: McpServerRow[];
  /** Without it the list is read-only: no actions (the team's servers, on a user's page). */
  onAction?: (action: ServerAction) => void;
  /** The server can test MCP servers (OpenHands cannot). */
  canTest: boolean;
  /** The list's accessible name. */
  label?: string;
  /** Cards instead of a table, for narrow screens. */
  layout: 'table' | 'cards';
}

function actionsOf(row: McpServerRow, canTest: boolean, onAction: (action: ServerAction) => void): RowActionItem[] {
  return [
    ...(canTest
      ? [{ verb: 'Test', title: 'Test connection', icon: <IconPlugConnected size={18} />, onClick: () => onAction({ type: 'test', row }) }]
      : []),
    { verb: 'Edit', icon: <IconPencil size={18} />, onClick: () => onAction({ type: 'edit', row }) },
    { verb: 'Delete', icon: <IconTrash size={18} />, danger: true, onClick: () => onAction({ type: 'delete', row }) },
  ];
}

function KindBadge({ row }: { row: McpServerRow }) {
  return (
    // As wide as its label: "Streamable HTTP" whole, never cut to "Streamable…"
    <Badge variant="light" color={row.kind === 'stdio' ? 'gray' : 'blue'} styles={{ label: { overflow: 'visible' } }}>
      {KIND_LABEL[row.kind]}
    </Badge>
  );
}

const keyState = (row: McpServerRow) => (row.keySet === undefined ? '—' : row.keySet ? 'Set' : 'Not set');

/** The servers, a table or (narrow screens) cards; only those in view are rendered (a config can hold hundreds). */
export function ServerList(props: ServerListProps) {
  return props.layout === 'cards' ? <ServerCards {...props} /> : <ServersTable {...props} />;
}

function ServersTable({ rows, onAction, canTest, label = 'MCP servers' }: ServerListProps) {
  const {
    bodyRef,
    rows: shown,
    measureRow,
    spacers,
  } = useWindowRows(rows.length, { estimateSize: 53, getKey: (index) => rows[index]!.id });
  return (
    <Table.ScrollContainer minWidth={640} type="native" pos="relative">
      <Table striped highlightOnHover aria-label={label} verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Type</Table.Th>
            <Table.Th>Server</Table.Th>
            <Table.Th>Command or options</Table.Th>
            <Table.Th>API key</Table.Th>
            {onAction && <RowActionsHeader />}
          </Table.Tr>
        </Table.Thead>
        <WindowRowsBody bodyRef={bodyRef} spacers={spacers}>
          {shown.map(({ index, key }) => {
            const row = rows[index]!;
            return (
              <Table.Tr key={key} data-server-id={row.id} data-index={index} ref={measureRow}>
                <Table.Td style={{ width: '1%', whiteSpace: 'nowrap' }}>
                  <KindBadge row={row} />
                </Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{row.label}</Table.Td>
                <Table.Td>
                  {row.details ? (
                    <Code style={{ wordBreak: 'break-all' }}>{row.details}</Code>
                  ) : (
                    <Text size="sm" c="dimmed">
                      —
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{keyState(row)}</Table.Td>
                {onAction && (
                  <Table.Td>
                    <RowActions name={row.label} actions={actionsOf(row, canTest, onAction)} />
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </WindowRowsBody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ServerCards({ rows, onAction, canTest, label = 'MCP servers' }: ServerListProps) {
  const {
    bodyRef,
    rows: shown,
    measureRow,
    spacers,
  } = useWindowRows<HTMLUListElement>(rows.length, { estimateSize: 110, getKey: (index) => rows[index]!.id });
  return (
    <WindowCardsList bodyRef={bodyRef} spacers={spacers} label={label}>
      {shown.map(({ index, key }) => {
        const row = rows[index]!;
        return (
          <li key={key} data-server-id={row.id} data-index={index} ref={measureRow} style={{ paddingBottom: 'var(--mantine-spacing-sm)' }}>
            <Paper withBorder radius="md" p="sm">
              <Stack gap={6}>
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
                    {row.label}
                  </Text>
                  <KindBadge row={row} />
                </Group>
                {row.details && <Code style={{ wordBreak: 'break-all' }}>{row.details}</Code>}
                <Group justify="space-between" wrap="nowrap">
                  <Text size="xs" c="dimmed">
                    API key: {keyState(row)}
                  </Text>
                  {onAction && <RowActions name={row.label} actions={actionsOf(row, canTest, onAction)} />}
                </Group>
              </Stack>
            </Paper>
          </li>
        );
      })}
    </WindowCardsList>
  );
}
