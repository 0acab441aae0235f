import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Badge, Table, Text } from '@mantine/core';
import { EmptyState } from '../../components/empty-state';
import { RelativeTime } from '../../components/relative-time';
import { useWindowRows } from '../../components/use-window-rows';
import { WindowRowsBody } from '../../components/window-rows-body';
import type { AuditLog } from '../../contract/audit';
import { actorName } from './audit-entry-detail';
import { ACTION_LABELS, RESOURCE_LABELS, RESULT_COLORS, RESULT_LABELS } from './labels';

export interface AuditViewProps {
  entries: AuditLog[];
  /** How many match the filters (more than `entries` until all are loaded). */
  count: number;
  onOpen: (entry: AuditLog) => void;
}

/** The log, newest first: only the rows in view are rendered, so thousands scroll as a few. */
export function AuditView({ entries, count, onOpen }: AuditViewProps) {
  const { t } = useLingui();
  const { bodyRef, rows, measureRow, spacers } = useWindowRows(entries.length, { estimateSize: 41, getKey: (index) => entries[index]!.id });
  const shown = entries.length;
  if (shown === 0) return <EmptyState title={t`No entries`} description={t`Nothing recorded matches these filters.`} />;
  return (
    <>
      <Text size="sm" c="dimmed" mb="xs">
        <Trans>
          {shown} of {count} entries
        </Trans>
      </Text>
      <Table.ScrollContainer minWidth={760} type="native">
        <Table aria-label={t`Audit log`} highlightOnHover verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                <Trans>When</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Who</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Action</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Resource</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Result</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>From</Trans>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <WindowRowsBody bodyRef={bodyRef} spacers={spacers}>
            {rows.map(({ index, key }) => {
              const entry = entries[index]!;
              const { seq } = entry;
              const action = t(ACTION_LABELS[entry.action]);
              const resource = t(RESOURCE_LABELS[entry.resource_type]);
              return (
                <Table.Tr key={key} data-index={index} data-seq={entry.seq} ref={measureRow}>
                  <Table.Td>
                    <Anchor component="button" type="button" size="sm" onClick={() => onOpen(entry)} aria-label={t`Entry ${seq}`}>
                      <RelativeTime iso={entry.time} />
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{actorName(entry, t`unknown`)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{action}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {entry.resource_target ? `${resource} · ${entry.resource_target}` : resource}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={RESULT_COLORS[entry.result]}>
                      {t(RESULT_LABELS[entry.result])}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      {entry.ip ?? '—'}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </WindowRowsBody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}
