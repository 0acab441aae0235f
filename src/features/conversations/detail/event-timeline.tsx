import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Button, Paper, Text } from '@mantine/core';
import { IconArrowDown } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useRef, useState } from 'react';
import type { StreamConnection } from '../../../api/events';
import { useFollowBottom } from '../../../components/use-follow-bottom';
import { TimelineRow } from './event-rows';
import type { TimelineItem } from './timeline';

export interface EventTimelineProps {
  items: readonly TimelineItem[];
  connection: StreamConnection;
  /** Stored events received so far, and how many there are, while the history loads. */
  history: { received: number; total: number } | null;
  /** Whether this page sends messages (an empty timeline says a message starts the agent); yes unless told. */
  canSend?: boolean;
}

const GAP_PX = 12;

function ConnectionNote({ connection }: { connection: StreamConnection }) {
  if (connection.state === 'retrying') {
    const { message } = connection.error;
    return (
      <Text size="xs" c="orange" role="status">
        <Trans>Live updates interrupted ({message}); reconnecting…</Trans>
      </Text>
    );
  }
  if (connection.state === 'failed') {
    const { message } = connection.error;
    return (
      <Text size="xs" c="red" role="status">
        <Trans>No live updates: {message}</Trans>
      </Text>
    );
  }
  return null;
}

function HistoryProgress({ received, total }: { received: number; total: number }) {
  const { t } = useLingui();
  return (
    <Text size="xs" c="dimmed" role="status">
      {t`Loading the history: ${received} of ${plural(total, { one: '# event', other: '# events' })}`}
    </Text>
  );
}

/**
 * A conversation's events, oldest first. Only the rows in view are in the page (a history can
 * be long), each measured as it renders. It follows new events while scrolled to the end and
 * stays put when the reader has scrolled up.
 */
export function EventTimeline({ items, connection, history, canSend = true }: EventTimelineProps) {
  const { t } = useLingui();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  // The console does not use the React Compiler, so nothing memoizes what the virtualizer returns.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 72,
    getItemKey: (index) => items[index]!.key,
    overscan: 6,
    paddingStart: 16,
    paddingEnd: 4,
  });
  const { atBottom, onScroll, scrollToBottom } = useFollowBottom(scrollRef, virtualizer.getTotalSize());
  const toggle = useCallback(
    (key: string) =>
      setExpanded((current) => {
        const next = new Set(current);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
    [],
  );

  return (
    <Paper withBorder radius="md" pos="relative">
      <Box px="md" pt="xs">
        {history && history.received < history.total && <HistoryProgress {...history} />}
        <ConnectionNote connection={connection} />
      </Box>
      <div
        ref={scrollRef}
        onScroll={onScroll}
        role="log"
        aria-label={t`Conversation events`}
        tabIndex={0}
        style={{ height: 'min(65vh, 900px)', overflowY: 'auto', padding: '0 var(--mantine-spacing-md)' }}
      >
        {items.length === 0 && connection.state !== 'connecting' && (
          <Text c="dimmed" size="sm" ta="center">
            {canSend ? t`No events yet. A message starts the agent.` : t`No events yet.`}
          </Text>
        )}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((row) => {
            const item = items[row.index]!;
            return (
              <div
                key={row.key}
                data-index={row.index}
                data-item={item.type}
                ref={virtualizer.measureElement}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  width: '100%',
                  transform: `translateY(${row.start}px)`,
                  paddingBottom: GAP_PX,
                }}
              >
                <TimelineRow item={item} expanded={expanded.has(item.key)} onToggle={() => toggle(item.key)} />
              </div>
            );
          })}
        </div>
      </div>
      {!atBottom && (
        <Button
          size="xs"
          radius="xl"
          leftSection={<IconArrowDown size={14} />}
          onClick={scrollToBottom}
          pos="absolute"
          bottom={12}
          left="50%"
          style={{ transform: 'translateX(-50%)' }}
        >
          <Trans>Latest</Trans>
        </Button>
      )}
    </Paper>
  );
}
