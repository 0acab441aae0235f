import { ActionIcon, Button, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconEye, IconEyeOff, IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import type { SandboxSpec } from '../../contract/sandboxes';
import { commandLine } from './command-line';

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
            No variables besides SESSION_API_KEY and PORT (and HOST in a container), which every sandbox gets.
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
