import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconPlus, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Dialog } from '../../components/dialog';
import { EmptyState } from '../../components/empty-state';
import { QueryContent } from '../../components/query-content';
import { SectionHeader } from '../../components/section-header';
import { unavailable } from '../../components/unavailable-dialog';
import { useCardLayout } from '../../components/use-card-layout';
import { savedMcpServerTestQuery } from '../../queries/mcp';
import { serverFeaturesQuery } from '../../queries/server-capabilities';
import { saveMcpConfigMutation, settingsQuery } from '../../queries/settings';
import { EMPTY_MCP_CONFIG, entryFor, formValuesFor, KIND_LABEL, type McpServerRow, serverRows, withoutServer } from './mcp-model';
import type { ExportDialog as ExportDialogLoaded } from './export-dialog';
import type { ImportDialog as ImportDialogLoaded } from './import-dialog';
import type { McpServerDrawer as McpServerDrawerLoaded } from './mcp-server-drawer';
import { ServerList } from './server-list';
import { TestResult } from './test-result';

/** What the router loads: the page, and the catalog of its strings. */
export { McpServersPage as Page };
export { loadMcpServersCatalog as catalog } from './catalog';

// Loaded when first opened: the editor's form library and the import and export dialogs are not
// needed to show the table. Should one's code fail to load (the server was updated), a dialog says so,
// titled in the language shown when it failed.
const McpServerDrawer = lazy((): Promise<{ default: typeof McpServerDrawerLoaded }> =>
  import('./mcp-server-drawer').then(
    (module) => ({ default: module.McpServerDrawer }),
    () => unavailable(i18n._(msg`MCP server`)),
  ),
);
const ImportDialog = lazy((): Promise<{ default: typeof ImportDialogLoaded }> =>
  import('./import-dialog').then(
    (module) => ({ default: module.ImportDialog }),
    () => unavailable(i18n._(msg`Import MCP servers`)),
  ),
);
const ExportDialog = lazy((): Promise<{ default: typeof ExportDialogLoaded }> =>
  import('./export-dialog').then(
    (module) => ({ default: module.ExportDialog }),
    () => unavailable(i18n._(msg`Export MCP servers`)),
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
  // The table's columns fit down to a tablet's width.
  const layout = useCardLayout('47.99em');
  const config = settings.data?.mcp_config ?? null;
  const rows = useMemo(() => serverRows(config), [config]);
  const teamConfig = settings.data?.team_mcp_config ?? null;
  const teamRows = useMemo(() => serverRows(teamConfig), [teamConfig]);
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const close = () => setDialog(null);
  const { t } = useLingui();

  return (
    <>
      <SectionHeader
        title={t`MCP servers`}
        description={t`Tools the agent can call: local servers it starts (stdio) and remote ones (SSE, streamable HTTP).`}
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconUpload size={16} />}
              onClick={() => setDialog({ type: 'import' })}
              disabled={settings.data === undefined}
            >
              <Trans>Import</Trans>
            </Button>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              onClick={() => setDialog({ type: 'export' })}
              disabled={rows.length === 0}
            >
              <Trans>Export</Trans>
            </Button>
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => setDialog({ type: 'edit', row: null })}
              disabled={settings.data === undefined}
            >
              <Trans>Add server</Trans>
            </Button>
          </>
        }
      />

      <QueryContent query={settings} what={t`MCP servers`}>
        {() =>
          rows.length === 0 ? (
            <EmptyState
              title={teamRows.length > 0 ? t`None of your own yet` : t`No MCP servers yet`}
              description={t`Add one, or import the mcpServers block you already use with another tool.`}
            />
          ) : (
            <ServerList rows={rows} onAction={setDialog} canTest={features?.mcpTest === true} layout={layout} />
          )
        }
      </QueryContent>

      {teamRows.length > 0 && (
        <Stack gap="sm" mt="xl">
          <SectionHeader
            title={t`Shared by your team`}
            size="h4"
            description={t`The agent gets these beside yours; one of yours with the same name or URL stands for the team’s. Only an admin changes them, in the team’s defaults.`}
          />
          <ServerList rows={teamRows} canTest={false} layout={layout} label={t`Your team’s MCP servers`} />
        </Stack>
      )}

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

function DeleteDialog({ row, onClose }: { row: McpServerRow; onClose: () => void }) {
  const { t } = useLingui();
  const save = useMutation(saveMcpConfigMutation(useQueryClient()));
  const remove = () =>
    save.mutate((fresh) => withoutServer(fresh ?? EMPTY_MCP_CONFIG, row.id), {
      onSuccess: () => {
        notifications.show({ color: 'teal', title: t`MCP server deleted`, message: row.label });
        onClose();
      },
    });
  const { label } = row;
  const type = KIND_LABEL[row.kind];
  return (
    <ConfirmDialog
      title={t`Delete MCP server?`}
      confirmLabel={t`Delete`}
      cancelLabel={t`Cancel`}
      onConfirm={remove}
      onClose={onClose}
      pending={save.isPending}
      error={save.error}
    >
      {row.keySet ? (
        <Trans>
          The agent will no longer be able to use <b>{label}</b> ({type}). Its stored API key is deleted with it.
        </Trans>
      ) : (
        <Trans>
          The agent will no longer be able to use <b>{label}</b> ({type}).
        </Trans>
      )}
    </ConfirmDialog>
  );
}

function TestDialog({ row, onClose }: { row: McpServerRow; onClose: () => void }) {
  const { t } = useLingui();
  const test = useQuery(savedMcpServerTestQuery(useMemo(() => entryFor(formValuesFor(row), row), [row])));
  const { label } = row;
  return (
    <Dialog opened onClose={onClose} title={t`Test connection: ${label}`} size="lg">
      <Stack>
        <TestResult pending={test.isFetching} result={test.isFetching ? undefined : test.data} error={test.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => void test.refetch()} loading={test.isFetching}>
            <Trans>Test again</Trans>
          </Button>
          <Button onClick={onClose}>
            <Trans>Close</Trans>
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
