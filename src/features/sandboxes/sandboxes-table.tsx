import { rowSelection } from '../../components/row-selection';
import { Anchor, Button, Checkbox, Group, Menu, Stack, Table, Text } from '@mantine/core';
import { IconDots, IconFileText, IconPlayerPause, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import type { SandboxAction } from '../../api/sandboxes';
import { CopyValue } from '../../components/copy-value';
import { RelativeTime } from '../../components/relative-time';
import { RowActionsHeader } from '../../components/row-actions';
import type { SandboxInfo } from '../../contract/sandboxes';
import { ACTION_LABEL, canApply } from './actions';
import { StatusBadge } from './status-badge';

interface TableProps {
  items: SandboxInfo[];
  inFlight: Map<string, SandboxAction>;
  selected: Set<string>;
  onSelect: (selected: Set<string>) => void;
  onAction: (action: SandboxAction, sandbox: SandboxInfo) => void;
  onLogs: (id: string) => void;
}

export function SandboxesTable({ items, inFlight, selected, onSelect, onAction, onLogs }: TableProps) {
  const { all, some, toggle, toggleAll } = rowSelection(
    items.map((sandbox) => sandbox.id),
    selected,
    onSelect,
  );
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table highlightOnHover aria-label="Sandboxes" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <Checkbox aria-label="Select all sandboxes on this page" checked={all} indeterminate={some} onChange={toggleAll} />
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
                  <SandboxRowActions sandbox={sandbox} busy={busy !== undefined} onAction={onAction} onLogs={onLogs} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function SandboxRowActions({
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
