import { ActionIcon, Button, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEye, IconEyeOff, IconPlayerPlay } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { describeError } from '../../api/errors';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { QueryContent } from '../../components/query-content';
import { RelativeTime } from '../../components/relative-time';
import { SidePanel } from '../../components/side-panel';
import { useUrlParams } from '../../components/use-url-params';
import type { SandboxSpec } from '../../contract/sandboxes';
import { notifyStarted } from './notices';
import { sandboxSpecsQuery } from '../../queries/sandbox-specs';
import { startSandboxMutation } from '../../queries/sandboxes';

const commandLine = (spec: SandboxSpec) => (spec.command ?? []).join(' ');

export function SandboxSpecsPage() {
  const specs = useQuery(sandboxSpecsQuery());
  // The open spec is in the URL, so its details can be shared and survive a reload.
  const [params, update] = useUrlParams<'spec'>();
  const open = specs.data?.items.find((spec) => spec.id === params.get('spec'));
  return (
    <>
      <PageHeader title="Sandbox specs" description="The templates sandboxes start from. The first is the default." />
      <QueryContent query={specs} what="sandbox specs">
        {({ items }) =>
          items.length === 0 ? (
            <EmptyState title="The server offers no sandbox specs" />
          ) : (
            <Table highlightOnHover aria-label="Sandbox specs" verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>ID</Table.Th>
                  <Table.Th>Command</Table.Th>
                  <Table.Th>Working dir</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((spec, index) => (
                  <Table.Tr key={spec.id}>
                    <Table.Td>
                      <Text size="sm" ff="monospace">
                        {spec.id}
                      </Text>
                      {index === 0 && (
                        <Text size="xs" c="dimmed">
                          default
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" ff="monospace" maw={380} truncate="end" title={commandLine(spec)}>
                        {commandLine(spec) || '—'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" ff="monospace">
                        {spec.working_dir || '(sandbox directory)'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <RelativeTime iso={spec.created_at} />
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="compact-sm"
                        variant="default"
                        onClick={() => update({ spec: spec.id })}
                        aria-label={`Details of ${spec.id}`}
                      >
                        Details
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        }
      </QueryContent>
      {open && <SpecDrawer spec={open} onClose={() => update({ spec: undefined })} />}
    </>
  );
}

/** Environment values may be secrets: hidden until asked for, one at a time. */
function EnvValue({ name, value }: { name: string; value: string }) {
  const [shown, setShown] = useState(false);
  return (
    <Group gap={4} wrap="nowrap">
      <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
        {shown ? value : '••••••••'}
      </Text>
      <ActionIcon variant="subtle" size="sm" onClick={() => setShown(!shown)} aria-label={shown ? `Hide ${name}` : `Show ${name}`}>
        {shown ? <IconEyeOff size={14} /> : <IconEye size={14} />}
      </ActionIcon>
    </Group>
  );
}

function SpecDrawer({ spec, onClose }: { spec: SandboxSpec; onClose: () => void }) {
  const start = useMutation(startSandboxMutation(useQueryClient()));
  const navigate = useNavigate();
  const env = Object.entries(spec.initial_env);
  const startFromSpec = () =>
    start.mutate(spec.id, {
      onSuccess: (sandbox) => {
        notifyStarted(sandbox);
        void navigate('/sandboxes');
      },
      onError: (error) => notifications.show({ color: 'red', title: 'Sandbox not started', message: describeError(error) }),
    });
  return (
    <SidePanel opened onClose={onClose} size="lg" title={`Spec ${spec.id}`}>
      <Stack>
        <div>
          <Title order={3} size="h5">
            Command
          </Title>
          <Code block mt={4} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {commandLine(spec) || '(none)'}
          </Code>
        </div>
        <div>
          <Title order={3} size="h5">
            Working directory
          </Title>
          <Text size="sm" ff="monospace">
            {spec.working_dir || '(the sandbox directory itself)'}
          </Text>
        </div>
        <div>
          <Title order={3} size="h5">
            Environment
          </Title>
          {env.length === 0 ? (
            <Text size="sm" c="dimmed">
              No variables besides SESSION_API_KEY and PORT, which every sandbox gets.
            </Text>
          ) : (
            <Table aria-label="Environment">
              <Table.Tbody>
                {env.map(([name, value]) => (
                  <Table.Tr key={name}>
                    <Table.Td ff="monospace">{name}</Table.Td>
                    <Table.Td>
                      <EnvValue name={name} value={value} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </div>
        <Group>
          <Button leftSection={<IconPlayerPlay size={16} />} onClick={startFromSpec} loading={start.isPending}>
            Start sandbox from this spec
          </Button>
        </Group>
      </Stack>
    </SidePanel>
  );
}
