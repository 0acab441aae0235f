import { Button, Code, Group, Loader, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { describeError } from '../../api/errors';
import { ErrorAlert } from '../../components/error-alert';
import { SidePanel } from '../../components/side-panel';
import { sandboxLogsQuery } from '../../queries/sandboxes';

/** The end of a sandbox's stdout and stderr, refreshed on request. */
export function LogsDrawer({ sandboxId, onClose }: { sandboxId: string; onClose: () => void }) {
  const logs = useQuery(sandboxLogsQuery(sandboxId));
  return (
    <SidePanel opened onClose={onClose} size="xl" title={`Logs of ${sandboxId}`}>
      <Stack>
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            The last 500 lines of its output.
          </Text>
          <Button
            variant="default"
            size="xs"
            leftSection={<IconRefresh size={14} />}
            onClick={() => void logs.refetch()}
            loading={logs.isFetching}
          >
            Refresh
          </Button>
        </Group>
        {logs.isPending ? (
          <Loader size="sm" />
        ) : logs.isError ? (
          <ErrorAlert>{describeError(logs.error)}</ErrorAlert>
        ) : logs.data.lines.length === 0 ? (
          <Text c="dimmed">Nothing written yet.</Text>
        ) : (
          <Code block aria-label="Log lines" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {logs.data.lines.join('\n')}
          </Code>
        )}
      </Stack>
    </SidePanel>
  );
}
