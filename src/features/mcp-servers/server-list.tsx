import { Trans, useLingui } from '@lingui/react/macro';
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

/** The words of a row's actions and columns, in the language shown. */
type Words = ReturnType<typeof useWords>;

function useWords() {
  const { t } = useLingui();
  return {
    test: t`Test`,
    testConnection: t`Test connection`,
    edit: t`Edit`,
    delete: t`Delete`,
    /** Whether a remote server's API key is stored; stdio servers have none. */
    keyState: (row: McpServerRow) => (row.keySet === undefined ? '—' : row.keySet ? t`Set` : t`Not set`),
    timeout: (seconds: number) => t`timeout ${seconds} s`,
    servers: t`MCP servers`,
  };
}

function actionsOf(row: McpServerRow, canTest: boolean, onAction: (action: ServerAction) => void, words: Words): RowActionItem[] {
  return [
    ...(canTest
      ? [
          {
            verb: words.test,
            title: words.testConnection,
            icon: <IconPlugConnected size={18} />,
            onClick: () => onAction({ type: 'test', row }),
          },
        ]
      : []),
    { verb: words.edit, icon: <IconPencil size={18} />, onClick: () => onAction({ type: 'edit', row }) },
    { verb: words.delete, icon: <IconTrash size={18} />, danger: true, onClick: () => onAction({ type: 'delete', row }) },
  ];
}

/** What a row says beyond its name: a stdio server's command line, a remote server's timeout. */
const detailsOf = (row: McpServerRow, words: Words) => row.details || (row.timeout === undefined ? '' : words.timeout(row.timeout));

function KindBadge({ row }: { row: McpServerRow }) {
  return (
    // As wide as its label: "Streamable HTTP" whole, never cut to "Streamable…"
    <Badge variant="light" color={row.kind === 'stdio' ? 'gray' : 'blue'} styles={{ label: { overflow: 'visible' } }}>
      {KIND_LABEL[row.kind]}
    </Badge>
  );
}

/** The servers, a table or (narrow screens) cards; only those in view are rendered (a config can hold hundreds). */
export function ServerList(props: ServerListProps) {
  return props.layout === 'cards' ? <ServerCards {...props} /> : <ServersTable {...props} />;
}

function ServersTable({ rows, onAction, canTest, label }: ServerListProps) {
  const words = useWords();
  const {
    bodyRef,
    rows: shown,
    measureRow,
    spacers,
  } = useWindowRows(rows.length, { estimateSize: 53, getKey: (index) => rows[index]!.id });
  return (
    <Table.ScrollContainer minWidth={640} type="native" pos="relative">
      <Table striped highlightOnHover aria-label={label ?? words.servers} verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Trans>Type</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Server</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Command or options</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>API key</Trans>
            </Table.Th>
            {onAction && <RowActionsHeader />}
          </Table.Tr>
        </Table.Thead>
        <WindowRowsBody bodyRef={bodyRef} spacers={spacers}>
          {shown.map(({ index, key }) => {
            const row = rows[index]!;
            const details = detailsOf(row, words);
            return (
              <Table.Tr key={key} data-server-id={row.id} data-index={index} ref={measureRow}>
                <Table.Td style={{ width: '1%', whiteSpace: 'nowrap' }}>
                  <KindBadge row={row} />
                </Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{row.label}</Table.Td>
                <Table.Td>
                  {details ? (
                    <Code style={{ wordBreak: 'break-all' }}>{details}</Code>
                  ) : (
                    <Text size="sm" c="dimmed">
                      —
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{words.keyState(row)}</Table.Td>
                {onAction && (
                  <Table.Td>
                    <RowActions name={row.label} actions={actionsOf(row, canTest, onAction, words)} />
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

function ServerCards({ rows, onAction, canTest, label }: ServerListProps) {
  const words = useWords();
  const {
    bodyRef,
    rows: shown,
    measureRow,
    spacers,
  } = useWindowRows<HTMLUListElement>(rows.length, { estimateSize: 110, getKey: (index) => rows[index]!.id });
  return (
    <WindowCardsList bodyRef={bodyRef} spacers={spacers} label={label ?? words.servers}>
      {shown.map(({ index, key }) => {
        const row = rows[index]!;
        const details = detailsOf(row, words);
        const keyState = words.keyState(row);
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
                {details && <Code style={{ wordBreak: 'break-all' }}>{details}</Code>}
                <Group justify="space-between" wrap="nowrap">
                  <Text size="xs" c="dimmed">
                    <Trans>API key: {keyState}</Trans>
                  </Text>
                  {onAction && <RowActions name={row.label} actions={actionsOf(row, canTest, onAction, words)} />}
                </Group>
              </Stack>
            </Paper>
          </li>
        );
      })}
    </WindowCardsList>
  );
}
