import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Code, Group, Loader, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { describeError } from '../../api/errors';
import { ErrorAlert } from '../../components/error-alert';
import { ShortId } from '../../components/short-id';
import { useFollowBottom } from '../../components/use-follow-bottom';
import { sandboxLogsQuery } from '../../queries/sandboxes';
import { type SandboxPanelProps, SandboxPanel } from './sandbox-panel';

/**
 * The end of a sandbox's stdout and stderr, read again every 2 s while open. It stays at the
 * newest line unless the reader scrolls up, and follows again once they scroll back down.
 */
export function LogsDrawer({ sandboxId, onClose }: SandboxPanelProps) {
  const { t } = useLingui();
  const logs = useQuery(sandboxLogsQuery(sandboxId));
  const area = useRef<HTMLPreElement>(null);
  const { atBottom, onScroll, scrollToBottom } = useFollowBottom(area, logs.dataUpdatedAt);
  return (
    <SandboxPanel
      onClose={onClose}
      title={
        <Trans>
          Logs of <ShortId id={sandboxId} />
        </Trans>
      }
    >
      <Stack>
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            <Trans>The last 500 lines of its output, as they come.</Trans>
          </Text>
          <Group gap="xs">
            {!atBottom && (
              <Button variant="light" size="xs" leftSection={<IconArrowDown size={14} />} onClick={scrollToBottom}>
                <Trans>Newest</Trans>
              </Button>
            )}
            <Button
              variant="default"
              size="xs"
              leftSection={<IconRefresh size={14} />}
              onClick={() => void logs.refetch()}
              loading={logs.isFetching}
            >
              <Trans>Refresh</Trans>
            </Button>
          </Group>
        </Group>
        {logs.isPending ? (
          <Loader size="sm" />
        ) : logs.isError ? (
          <ErrorAlert>{describeError(logs.error)}</ErrorAlert>
        ) : logs.data.lines.length === 0 ? (
          <Text c="dimmed">
            <Trans>Nothing written yet.</Trans>
          </Text>
        ) : (
          <Code
            block
            ref={area}
            onScroll={onScroll}
            // A log, scrollable from the keyboard; not announced: it is read again whole every 2 s.
            role="log"
            aria-live="off"
            aria-label={t`Log lines`}
            tabIndex={0}
            // eslint-disable-next-line lingui/no-unlocalized-strings -- a CSS length, not words
            mah="calc(100dvh - 150px)"
            style={{ overflowY: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
          >
            {logs.data.lines.join('\n')}
          </Code>
        )}
      </Stack>
    </SandboxPanel>
  );
}
