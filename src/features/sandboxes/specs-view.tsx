import { ActionIcon, Button, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconEye, IconEyeOff, IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { RelativeTime } from '../../components/relative-time';
import type { SandboxSpec } from '../../contract/sandboxes';

/** Its command as a line; a spec without one runs its image's own (a Docker spec). */
function commandLine(spec: SandboxSpec): string | undefined {
  if (spec.command && spec.command.length > 0) return spec.command.join(' ');
  return spec.image ? "(the image's own)" : undefined;
}

export interface SandboxSpecsTableProps {
  /** The specs, the default first. */
  specs: SandboxSpec[];
  onDetails: (id: string) => void;
}

/** The specs, each with its image when the server runs it in one (Docker), and a way to its details. */
export function SandboxSpecsTable({ specs, onDetails }: SandboxSpecsTableProps) {
  const withImages = specs.some((spec) => spec.image);
  return (
    <Table highlightOnHover aria-label="Sandbox specs" verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>ID</Table.Th>
          {withImages && <Table.Th>Image</Table.Th>}
          <Table.Th>Command</Table.Th>
          <Table.Th>Working dir</Table.Th>
          <Table.Th>Created</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {specs.map((spec, index) => (
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
            {withImages && (
              <Table.Td>
                <Text size="sm" ff="monospace" maw={260} truncate="end" title={spec.image ?? undefined}>
                  {spec.image || '—'}
                </Text>
              </Table.Td>
            )}
            <Table.Td>
              <Text size="sm" ff="monospace" maw={380} truncate="end" title={commandLine(spec)}>
                {commandLine(spec) ?? '—'}
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
              <Button size="compact-sm" variant="default" onClick={() => onDetails(spec.id)} aria-label={`Details of ${spec.id}`}>
                Details
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
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

export interface SpecDetailsProps {
  spec: SandboxSpec;
  onStart: () => void;
  starting: boolean;
}

/** One spec in full: its image, command, working directory and environment, and a start from it. */
export function SpecDetails({ spec, onStart, starting }: SpecDetailsProps) {
  const env = Object.entries(spec.initial_env);
  return (
    <Stack>
      {spec.image && (
        <div>
          <Title order={3} size="h5">
            Image
          </Title>
          <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {spec.image}
          </Text>
        </div>
      )}
      <div>
        <Title order={3} size="h5">
          Command
        </Title>
        <Code block mt={4} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {commandLine(spec) ?? '(none)'}
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
        <Button leftSection={<IconPlayerPlay size={16} />} onClick={onStart} loading={starting}>
          Start sandbox from this spec
        </Button>
      </Group>
    </Stack>
  );
}
