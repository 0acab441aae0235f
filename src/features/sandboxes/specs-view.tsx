import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { RelativeTime } from '../../components/relative-time';
import { RowActionsHeader } from '../../components/row-actions';
import type { SandboxSpec } from '../../contract/sandboxes';
import { commandLine } from './command-line';

export interface SandboxSpecsListProps {
  /** The specs, the default first. */
  specs: SandboxSpec[];
  onDetails: (id: string) => void;
  /** Starts a sandbox from the spec at once. */
  onStart: (id: string) => void;
  /** The spec a sandbox is being started from. */
  startingId?: string;
  /** Cards instead of a table, for narrow screens. */
  layout?: 'table' | 'cards';
}

/** The specs, each with its image when the server runs it in one (Docker), a start and a way to its details. */
export function SandboxSpecsList({ layout = 'table', ...props }: SandboxSpecsListProps) {
  return layout === 'cards' ? <SpecCards {...props} /> : <SpecsTable {...props} />;
}

type ListProps = Omit<SandboxSpecsListProps, 'layout'>;

/** Start and Details, named for their spec. */
function SpecActions({ spec, onDetails, onStart, startingId }: Omit<ListProps, 'specs'> & { spec: SandboxSpec }) {
  const { t } = useLingui();
  const { id } = spec;
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <Button
        size="compact-sm"
        variant="default"
        leftSection={<IconPlayerPlay size={14} />}
        loading={startingId === spec.id}
        disabled={startingId !== undefined && startingId !== spec.id}
        onClick={() => onStart(spec.id)}
        aria-label={t`Start a sandbox from ${id}`}
      >
        <Trans>Start</Trans>
      </Button>
      <Button size="compact-sm" variant="default" onClick={() => onDetails(spec.id)} aria-label={t`Details of ${id}`}>
        <Trans>Details</Trans>
      </Button>
    </Group>
  );
}

const DefaultMark = () => (
  <Text size="xs" c="dimmed">
    <Trans>default</Trans>
  </Text>
);

function SpecsTable({ specs, ...actions }: ListProps) {
  const { t, i18n } = useLingui();
  const withImages = specs.some((spec) => spec.image);
  return (
    <Table highlightOnHover aria-label={t`Sandbox specs`} verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>ID</Table.Th>
          {withImages && (
            <Table.Th>
              <Trans>Image</Trans>
            </Table.Th>
          )}
          <Table.Th>
            <Trans>Command</Trans>
          </Table.Th>
          <Table.Th>
            <Trans>Working dir</Trans>
          </Table.Th>
          <Table.Th>
            <Trans>Created</Trans>
          </Table.Th>
          <RowActionsHeader />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {specs.map((spec, index) => (
          <Table.Tr key={spec.id} data-spec-id={spec.id}>
            <Table.Td>
              <Text size="sm" ff="monospace">
                {spec.id}
              </Text>
              {index === 0 && <DefaultMark />}
            </Table.Td>
            {withImages && (
              <Table.Td>
                <Text size="sm" ff="monospace" maw={260} truncate="end" title={spec.image ?? undefined}>
                  {spec.image || '—'}
                </Text>
              </Table.Td>
            )}
            <Table.Td>
              <Text size="sm" ff="monospace" maw={380} truncate="end" title={commandLine(i18n, spec)}>
                {commandLine(i18n, spec) ?? '—'}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm" ff="monospace">
                {spec.working_dir || t`(sandbox directory)`}
              </Text>
            </Table.Td>
            <Table.Td>
              <RelativeTime iso={spec.created_at} />
            </Table.Td>
            <Table.Td>
              <SpecActions spec={spec} {...actions} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** On a narrow screen: a card each, its command wrapped rather than cut, Start in view. */
function SpecCards({ specs, ...actions }: ListProps) {
  const { t, i18n } = useLingui();
  return (
    <Stack component="ul" aria-label={t`Sandbox specs`} gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
      {specs.map((spec, index) => (
        <Paper component="li" key={spec.id} withBorder radius="md" p="sm" data-spec-id={spec.id}>
          <Stack gap={6}>
            <Group gap="xs">
              <Text size="sm" ff="monospace" fw={600} style={{ wordBreak: 'break-all' }}>
                {spec.id}
              </Text>
              {index === 0 && (
                <Badge variant="light" color="gray" size="sm">
                  <Trans>default</Trans>
                </Badge>
              )}
            </Group>
            {spec.image && <SpecImage image={spec.image} />}
            <Text size="xs" ff="monospace" lineClamp={3} style={{ wordBreak: 'break-all' }} title={commandLine(i18n, spec)}>
              {commandLine(i18n, spec) ?? t`(no command)`}
            </Text>
            <SpecActions spec={spec} {...actions} />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

function SpecImage({ image }: { image: string }) {
  return (
    <Text size="xs" ff="monospace" c="dimmed" style={{ wordBreak: 'break-all' }}>
      <Trans>Image: {image}</Trans>
    </Text>
  );
}
