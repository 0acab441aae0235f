import { Anchor, Button, Checkbox, Group, Menu, NativeSelect, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDots, IconFileText, IconPlayerPause, IconPlayerPlay, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { describeError } from '../../api/errors';
import type { SandboxAction } from '../../api/sandboxes';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyValue } from '../../components/copy-value';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { QueryContent } from '../../components/query-content';
import { RelativeTime } from '../../components/relative-time';
import { RowActionsHeader } from '../../components/row-actions';
import { useUrlParams } from '../../components/use-url-params';
import { type SandboxInfo, type SandboxStatus, SANDBOX_STATUSES } from '../../contract/sandboxes';
import { sandboxSpecsQuery } from '../../queries/sandbox-specs';
import { sandboxActionMutation, sandboxesQuery } from '../../queries/sandboxes';
import { ACTION_LABEL, canApply } from './actions';
import { BulkActionDialog } from './bulk-action-dialog';
import { LogsDrawer } from './logs-drawer';
import { notifyPausedOthers } from './notices';
import { StartSandboxDialog } from './start-sandbox-dialog';
import { useActionsInFlight } from './use-actions-in-flight';
import { STATUS_OPTIONS, StatusBadge } from './status-badge';

type Dialog = { type: 'start' } | { type: 'delete'; sandbox: SandboxInfo } | { type: 'bulk'; action: SandboxAction };

const isStatus = (value: string | null): value is SandboxStatus => SANDBOX_STATUSES.includes(value as SandboxStatus);

/**
 * Filters, the page cursor and the sandbox whose logs are open live in the URL, so a view can be
 * shared and survives a reload.
 */
function useViewParams() {
  const [params, update] = useUrlParams<'status' | 'spec' | 'page' | 'logs'>();
  const status = params.get('status');
  const filters = {
    status: isStatus(status) ? status : undefined,
    specId: params.get('spec') ?? undefined,
    pageId: params.get('page') ?? undefined,
  };
  const logsId = params.get('logs') ?? undefined;
  return { filters, logsId, update };
}

export function SandboxesPage() {
  const { filters, logsId, update } = useViewParams();
  const inFlight = useActionsInFlight();
  const sandboxes = useQuery(sandboxesQuery(filters, inFlight.size > 0));
  const specs = useQuery(sandboxSpecsQuery());
  const act = useMutation(sandboxActionMutation(useQueryClient()));
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const items = useMemo(() => sandboxes.data?.items ?? [], [sandboxes.data]);
  const selection = items.filter((sandbox) => selected.has(sandbox.id));
  const filtered = Boolean(filters.status || filters.specId);

  const changeFilters = (changes: Partial<Record<'status' | 'spec' | 'page', string | undefined>>) => {
    setSelected(new Set()); // a selection belongs to the rows it was made on
    update({ status: filters.status, spec: filters.specId, page: undefined, ...changes });
  };

  const perform = (action: SandboxAction, sandbox: SandboxInfo) =>
    act.mutate(
      { action, id: sandbox.id },
      {
        onSuccess: (result) => notifyPausedOthers(result.paused_sandbox_ids),
        onError: (error) =>
          notifications.show({ color: 'red', title: `Could not ${action} ${sandbox.id.slice(0, 8)}`, message: describeError(error) }),
      },
    );

  return (
    <>
      <PageHeader
        title="Sandboxes"
        description="The environments conversations run in. Paused sandboxes keep their state and use no CPU."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ type: 'start' })}>
            Start sandbox
          </Button>
        }
      />
      <Group mb="md" align="flex-end">
        <NativeSelect
          label="Status"
          data={[{ value: '', label: 'All statuses' }, ...STATUS_OPTIONS]}
          value={filters.status ?? ''}
          onChange={(event) => changeFilters({ status: event.currentTarget.value || undefined })}
        />
        <NativeSelect
          label="Spec"
          data={[
            { value: '', label: 'All specs' },
            ...(specs.data?.items.map((spec) => ({ value: spec.id, label: spec.id })) ?? []),
            ...(filters.specId && !specs.data?.items.some((s) => s.id === filters.specId)
              ? [{ value: filters.specId, label: filters.specId }]
              : []),
          ]}
          value={filters.specId ?? ''}
          onChange={(event) => changeFilters({ spec: event.currentTarget.value || undefined })}
        />
        {filtered && (
          <Button variant="subtle" onClick={() => changeFilters({ status: undefined, spec: undefined })}>
            Clear filters
          </Button>
        )}
      </Group>

      {selection.length > 0 && (
        <Paper withBorder p="xs" mb="sm" radius="md" role="toolbar" aria-label="Selected sandboxes">
          <Group justify="space-between">
            <Text size="sm">{selection.length} selected</Text>
            <Group gap="xs">
              {(['pause', 'resume', 'delete'] as const).map((action) => {
                const count = selection.filter((sandbox) => canApply(action, sandbox.status)).length;
                return (
                  <Button
                    key={action}
                    size="xs"
                    variant={action === 'delete' ? 'light' : 'default'}
                    color={action === 'delete' ? 'red' : undefined}
                    disabled={count === 0}
                    onClick={() => setDialog({ type: 'bulk', action })}
                  >
                    {ACTION_LABEL[action].verb} ({count})
                  </Button>
                );
              })}
            </Group>
          </Group>
        </Paper>
      )}

      <QueryContent query={sandboxes} what="sandboxes" skeleton={<Skeleton height={180} radius="md" aria-label="Loading sandboxes" />}>
        {() =>
          items.length === 0 ? (
            <EmptyState title={filtered ? 'No sandboxes match these filters' : 'No sandboxes yet'}>
              {filtered ? (
                <Button variant="default" onClick={() => changeFilters({ status: undefined, spec: undefined })}>
                  Clear filters
                </Button>
              ) : (
                <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ type: 'start' })}>
                  Start sandbox
                </Button>
              )}
            </EmptyState>
          ) : (
            <SandboxesTable
              items={items}
              inFlight={inFlight}
              selected={selected}
              onSelect={setSelected}
              onAction={(action, sandbox) => (action === 'delete' ? setDialog({ type: 'delete', sandbox }) : perform(action, sandbox))}
              onLogs={(id) => update({ logs: id })}
            />
          )
        }
      </QueryContent>

      {(filters.pageId || sandboxes.data?.next_page_id) && (
        <Group justify="flex-end" mt="sm">
          <Button variant="default" size="xs" disabled={!filters.pageId} onClick={() => changeFilters({ page: undefined })}>
            First page
          </Button>
          <Button
            variant="default"
            size="xs"
            disabled={!sandboxes.data?.next_page_id}
            onClick={() => changeFilters({ page: sandboxes.data?.next_page_id ?? undefined })}
          >
            Next page
          </Button>
        </Group>
      )}

      {dialog?.type === 'start' && <StartSandboxDialog onClose={() => setDialog(null)} initialSpec={filters.specId} />}
      {logsId && <LogsDrawer sandboxId={logsId} onClose={() => update({ logs: undefined })} />}
      {dialog?.type === 'delete' && (
        <ConfirmDialog
          title="Delete sandbox?"
          confirmLabel="Delete"
          onClose={() => setDialog(null)}
          onConfirm={() => {
            perform('delete', dialog.sandbox);
            setDialog(null);
          }}
        >
          Sandbox <b style={{ fontFamily: 'var(--mantine-font-family-monospace)' }}>{dialog.sandbox.id}</b> (
          {dialog.sandbox.sandbox_spec_id}) is stopped and its files are deleted. This cannot be undone.
        </ConfirmDialog>
      )}
      {dialog?.type === 'bulk' && (
        <BulkActionDialog
          action={dialog.action}
          selected={selection}
          onClose={(finished) => {
            if (finished) setSelected(new Set());
            setDialog(null);
          }}
        />
      )}
    </>
  );
}

interface TableProps {
  items: SandboxInfo[];
  inFlight: Map<string, SandboxAction>;
  selected: Set<string>;
  onSelect: (selected: Set<string>) => void;
  onAction: (action: SandboxAction, sandbox: SandboxInfo) => void;
  onLogs: (id: string) => void;
}

function SandboxesTable({ items, inFlight, selected, onSelect, onAction, onLogs }: TableProps) {
  const all = items.length > 0 && items.every((sandbox) => selected.has(sandbox.id));
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelect(next);
  };
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table highlightOnHover aria-label="Sandboxes" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <Checkbox
                aria-label="Select all sandboxes on this page"
                checked={all}
                indeterminate={!all && selected.size > 0}
                onChange={() => onSelect(all ? new Set() : new Set(items.map((sandbox) => sandbox.id)))}
              />
            </Table.Th>
            <Table.Th>ID</Table.Th>
            <Table.Th>Spec</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Agent server</Table.Th>
            <Table.Th>Session key</Table.Th>
            <RowActionsHeader />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((sandbox) => {
            const busy = inFlight.get(sandbox.id);
            const agentUrl = sandbox.exposed_urls?.find((url) => url.name === 'AGENT_SERVER')?.url;
            return (
              <Table.Tr
                key={sandbox.id}
                data-sandbox-id={sandbox.id}
                bg={selected.has(sandbox.id) ? 'var(--mantine-primary-color-light)' : undefined}
              >
                <Table.Td>
                  <Checkbox aria-label={`Select ${sandbox.id}`} checked={selected.has(sandbox.id)} onChange={() => toggle(sandbox.id)} />
                </Table.Td>
                <Table.Td>
                  <CopyValue value={sandbox.id} label="sandbox id" maxWidth={130} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{sandbox.sandbox_spec_id}</Text>
                </Table.Td>
                <Table.Td>
                  <Stack gap={2}>
                    <StatusBadge status={sandbox.status} inFlight={busy} />
                    {sandbox.status_detail && !busy && (
                      <Text size="xs" c="red.8" maw={260}>
                        {sandbox.status_detail}
                      </Text>
                    )}
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <RelativeTime iso={sandbox.created_at} />
                </Table.Td>
                <Table.Td>
                  {agentUrl ? (
                    <Anchor href={agentUrl} target="_blank" rel="noreferrer" size="sm" ff="monospace">
                      {agentUrl.replace(/^https?:\/\//, '')}
                    </Anchor>
                  ) : (
                    <Text size="sm" c="dimmed">
                      —
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {sandbox.session_api_key ? (
                    <CopyValue value={sandbox.session_api_key} label={`session key of ${sandbox.id}`} masked />
                  ) : (
                    <Text size="sm" c="dimmed">
                      —
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <RowActions sandbox={sandbox} busy={busy !== undefined} onAction={onAction} onLogs={onLogs} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function RowActions({
  sandbox,
  busy,
  onAction,
  onLogs,
}: {
  sandbox: SandboxInfo;
  busy: boolean;
  onAction: TableProps['onAction'];
  onLogs: (id: string) => void;
}) {
  const paused = sandbox.status === 'PAUSED';
  const primary: SandboxAction = paused ? 'resume' : 'pause';
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <Button
        size="compact-sm"
        variant="default"
        leftSection={paused ? <IconPlayerPlay size={14} /> : <IconPlayerPause size={14} />}
        disabled={busy || !canApply(primary, sandbox.status)}
        onClick={() => onAction(primary, sandbox)}
        aria-label={`${ACTION_LABEL[primary].verb} ${sandbox.id}`}
      >
        {ACTION_LABEL[primary].verb}
      </Button>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="compact-sm" variant="subtle" aria-label={`More actions for ${sandbox.id}`} px={6}>
            <IconDots size={16} />
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconFileText size={14} />} onClick={() => onLogs(sandbox.id)}>
            Logs
          </Menu.Item>
          <Menu.Item leftSection={<IconTrash size={14} />} color="red" disabled={busy} onClick={() => onAction('delete', sandbox)}>
            Delete
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
