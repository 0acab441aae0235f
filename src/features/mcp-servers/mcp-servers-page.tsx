import { Badge, Button, Code, Group, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconPencil, IconPlugConnected, IconPlus, IconTrash, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Dialog } from '../../components/dialog';
import { EmptyState } from '../../components/empty-state';
import { QueryContent } from '../../components/query-content';
import { RowActions, RowActionsHeader } from '../../components/row-actions';
import { SectionHeader } from '../../components/section-header';
import { unavailable } from '../../components/unavailable-dialog';
import { WindowRowsBody } from '../../components/window-rows-body';
import { useWindowRows } from '../../components/use-window-rows';
import { savedMcpServerTestQuery } from '../../queries/mcp';
import { serverFeaturesQuery } from '../../queries/server-capabilities';
import { saveMcpConfigMutation, settingsQuery } from '../../queries/settings';
import { EMPTY_MCP_CONFIG, entryFor, formValuesFor, KIND_LABEL, type McpServerRow, serverRows, withoutServer } from './mcp-model';
import type { ExportDialog as ExportDialogLoaded } from './export-dialog';
import type { ImportDialog as ImportDialogLoaded } from './import-dialog';
import type { McpServerDrawer as McpServerDrawerLoaded } from './mcp-server-drawer';
import { TestResult } from './test-result';

// Loaded when first opened: the editor's form library and the import and export dialogs are not
// needed to show the table. Should one's code fail to load (the server was updated), a dialog says so.
const McpServerDrawer = lazy((): Promise<{ default: typeof McpServerDrawerLoaded }> =>
  import('./mcp-server-drawer').then(
    (module) => ({ default: module.McpServerDrawer }),
    () => unavailable('MCP server'),
  ),
);
const ImportDialog = lazy((): Promise<{ default: typeof ImportDialogLoaded }> =>
  import('./import-dialog').then(
    (module) => ({ default: module.ImportDialog }),
    () => unavailable('Import MCP servers'),
  ),
);
const ExportDialog = lazy((): Promise<{ default: typeof ExportDialogLoaded }> =>
  import('./export-dialog').then(
    (module) => ({ default: module.ExportDialog }),
    () => unavailable('Export MCP servers'),
  ),
);

/** The dialog or drawer open over the page. */
type OpenDialog =
  | { type: 'edit'; row: McpServerRow | null }
  | { type: 'delete'; row: McpServerRow }
  | { type: 'test'; row: McpServerRow }
  | { type: 'import' }
  | { type: 'export' };

export function McpServersPage() {
  const settings = useQuery(settingsQuery());
  const features = useQuery(serverFeaturesQuery()).data;
  const config = settings.data?.mcp_config ?? null;
  const rows = useMemo(() => serverRows(config), [config]);
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const close = () => setDialog(null);

  return (
    <>
      <SectionHeader
        title="MCP servers"
        description="Tools the agent can call: local servers it starts (stdio) and remote ones (SSE, streamable HTTP)."
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconUpload size={16} />}
              onClick={() => setDialog({ type: 'import' })}
              disabled={settings.data === undefined}
            >
              Import
            </Button>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              onClick={() => setDialog({ type: 'export' })}
              disabled={rows.length === 0}
            >
              Export
            </Button>
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => setDialog({ type: 'edit', row: null })}
              disabled={settings.data === undefined}
            >
              Add server
            </Button>
          </>
        }
      />

      <QueryContent query={settings} what="MCP servers">
        {() =>
          rows.length === 0 ? (
            <EmptyState
              title="No MCP servers yet"
              description="Add one, or import the mcpServers block you already use with another tool."
            />
          ) : (
            <ServersTable rows={rows} onAction={setDialog} canTest={features?.mcpTest === true} />
          )
        }
      </QueryContent>

      <Suspense fallback={null}>
        {dialog?.type === 'edit' && <McpServerDrawer key={dialog.row?.id ?? 'new'} row={dialog.row} config={config} onClose={close} />}
        {dialog?.type === 'delete' && <DeleteDialog row={dialog.row} onClose={close} />}
        {dialog?.type === 'test' && <TestDialog row={dialog.row} onClose={close} />}
        {dialog?.type === 'import' && <ImportDialog config={config} onClose={close} />}
        {dialog?.type === 'export' && <ExportDialog config={config} onClose={close} />}
      </Suspense>
    </>
  );
}

/** `canTest`: the server can test MCP servers (OpenHands cannot). Only the rows in view are rendered (a config can hold hundreds). */
function ServersTable({ rows, onAction, canTest }: { rows: McpServerRow[]; onAction: (dialog: OpenDialog) => void; canTest: boolean }) {
  const {
    bodyRef,
    rows: shown,
    measureRow,
    spacers,
  } = useWindowRows(rows.length, { estimateSize: 53, getKey: (index) => rows[index]!.id });
  return (
    <Table.ScrollContainer minWidth={640} type="native" pos="relative">
      <Table striped highlightOnHover aria-label="MCP servers" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Type</Table.Th>
            <Table.Th>Server</Table.Th>
            <Table.Th>Command or options</Table.Th>
            <Table.Th>API key</Table.Th>
            <RowActionsHeader />
          </Table.Tr>
        </Table.Thead>
        <WindowRowsBody bodyRef={bodyRef} spacers={spacers}>
          {shown.map(({ index, key }) => {
            const row = rows[index]!;
            return (
              <Table.Tr key={key} data-server-id={row.id} data-index={index} ref={measureRow}>
                {/* As wide as its badge: "Streamable HTTP" whole, never cut to "Streamable…" */}
                <Table.Td style={{ width: '1%', whiteSpace: 'nowrap' }}>
                  <Badge variant="light" color={row.kind === 'stdio' ? 'gray' : 'blue'} styles={{ label: { overflow: 'visible' } }}>
                    {KIND_LABEL[row.kind]}
                  </Badge>
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
                <Table.Td>{row.keySet === undefined ? '—' : row.keySet ? 'Set' : 'Not set'}</Table.Td>
                <Table.Td>
                  <RowActions
                    name={row.label}
                    actions={[
                      ...(canTest
                        ? [
                            {
                              verb: 'Test',
                              title: 'Test connection',
                              icon: <IconPlugConnected size={18} />,
                              onClick: () => onAction({ type: 'test', row }),
                            },
                          ]
                        : []),
                      { verb: 'Edit', icon: <IconPencil size={18} />, onClick: () => onAction({ type: 'edit', row }) },
                      { verb: 'Delete', icon: <IconTrash size={18} />, danger: true, onClick: () => onAction({ type: 'delete', row }) },
                    ]}
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </WindowRowsBody>
      </Table>
    </Table.ScrollContainer>
  );
}

function DeleteDialog({ row, onClose }: { row: McpServerRow; onClose: () => void }) {
  const save = useMutation(saveMcpConfigMutation(useQueryClient()));
  const remove = () =>
    save.mutate((fresh) => withoutServer(fresh ?? EMPTY_MCP_CONFIG, row.id), {
      onSuccess: () => {
        notifications.show({ color: 'teal', title: 'MCP server deleted', message: row.label });
        onClose();
      },
    });
  return (
    <ConfirmDialog
      title="Delete MCP server?"
      confirmLabel="Delete"
      onConfirm={remove}
      onClose={onClose}
      pending={save.isPending}
      error={save.error}
    >
      The agent will no longer be able to use <b>{row.label}</b> ({KIND_LABEL[row.kind]}).
      {row.keySet ? ' Its stored API key is deleted with it.' : ''}
    </ConfirmDialog>
  );
}

function TestDialog({ row, onClose }: { row: McpServerRow; onClose: () => void }) {
  const test = useQuery(savedMcpServerTestQuery(useMemo(() => entryFor(formValuesFor(row), row), [row])));
  return (
    <Dialog opened onClose={onClose} title={`Test connection: ${row.label}`} size="lg">
      <Stack>
        <TestResult pending={test.isFetching} result={test.isFetching ? undefined : test.data} error={test.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => void test.refetch()} loading={test.isFetching}>
            Test again
          </Button>
          <Button onClick={onClose}>Close</Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
