import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Button, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconEye, IconEyeOff, IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import type { SandboxSpec } from '../../contract/sandboxes';
import { commandLine } from './command-line';

/** Environment values may be secrets: hidden until asked for, one at a time. */
function EnvValue({ name, value }: { name: string; value: string }) {
  const { t } = useLingui();
  const [shown, setShown] = useState(false);
  return (
    <Group gap={4} wrap="nowrap">
      <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
        {shown ? value : '••••••••'}
      </Text>
      <ActionIcon variant="subtle" size="sm" onClick={() => setShown(!shown)} aria-label={shown ? t`Hide ${name}` : t`Show ${name}`}>
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
  const { t, i18n } = useLingui();
  const env = Object.entries(spec.initial_env);
  return (
    <Stack>
      {spec.image && (
        <div>
          <Title order={3} size="h5">
            <Trans>Image</Trans>
          </Title>
          <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {spec.image}
          </Text>
        </div>
      )}
      <div>
        <Title order={3} size="h5">
          <Trans>Command</Trans>
        </Title>
        <Code block mt={4} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {commandLine(i18n, spec) ?? t`(none)`}
        </Code>
      </div>
      <div>
        <Title order={3} size="h5">
          <Trans>Working directory</Trans>
        </Title>
        <Text size="sm" ff="monospace">
          {spec.working_dir || t`(the sandbox directory itself)`}
        </Text>
      </div>
      <div>
        <Title order={3} size="h5">
          <Trans>Environment</Trans>
        </Title>
        {env.length === 0 ? (
          <Text size="sm" c="dimmed">
            <Trans>No variables besides SESSION_API_KEY and PORT (and HOST in a container), which every sandbox gets.</Trans>
          </Text>
        ) : (
          <Table aria-label={t`Environment`}>
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
          <Trans>Start sandbox from this spec</Trans>
        </Button>
      </Group>
    </Stack>
  );
}
