import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Code, Stack, Table, Text } from '@mantine/core';
import type { AuditFieldChange, AuditLog } from '../../contract/audit';
import { ACTION_LABELS, AUTH_METHOD_LABELS, RESOURCE_LABELS, RESULT_COLORS, RESULT_LABELS } from './labels';

/** A value of a diff as text: lists joined, nothing as a dash. */
const shown = (value: AuditFieldChange['old']) => (value === null ? '—' : Array.isArray(value) ? value.join(', ') : String(value));

/** Who did it as a line: their name (or id), else "unknown". */
export function actorName(entry: AuditLog, unknown: string): string {
  return entry.user_name ?? entry.user_id ?? unknown;
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={140} fw={500}>
        {label}
      </Table.Th>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>{children}</Table.Td>
    </Table.Tr>
  );
}

/** One entry: who, how, from where, what on what, when, how it ended, and each field before and after. */
export function AuditEntryDetail({ entry }: { entry: AuditLog }) {
  const { t, i18n } = useLingui();
  const how = entry.auth_method ? t(AUTH_METHOD_LABELS[entry.auth_method]) : '—';
  const changes = Object.entries(entry.diff);
  const { seq } = entry;
  const hash = entry.hash.slice(0, 16);
  const time = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(entry.time));
  return (
    <Stack>
      <Table aria-label={t`Entry`} verticalSpacing={4}>
        <Table.Tbody>
          <Fact label={t`When`}>
            <time dateTime={entry.time}>{time}</time>
          </Fact>
          <Fact label={t`Who`}>{actorName(entry, t`unknown`)}</Fact>
          <Fact label={t`How`}>{entry.api_key_name ? `${how} (${entry.api_key_name})` : how}</Fact>
          <Fact label={t`From`}>{entry.ip ?? '—'}</Fact>
          <Fact label={t`Action`}>{t(ACTION_LABELS[entry.action])}</Fact>
          <Fact label={t`Resource`}>
            {t(RESOURCE_LABELS[entry.resource_type])}
            {entry.resource_target && ` · ${entry.resource_target}`}
            {entry.resource_id && (
              <Text size="xs" c="dimmed">
                {entry.resource_id}
              </Text>
            )}
          </Fact>
          <Fact label={t`Result`}>
            <Badge variant="light" color={RESULT_COLORS[entry.result]}>
              {t(RESULT_LABELS[entry.result])}
            </Badge>
          </Fact>
          {entry.reason && <Fact label={t`Reason`}>{entry.reason}</Fact>}
        </Table.Tbody>
      </Table>
      <Text fw={600}>
        <Trans>Changes</Trans>
      </Text>
      {changes.length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>No fields changed.</Trans>
        </Text>
      ) : (
        <Table aria-label={t`Changes`} verticalSpacing={4} withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                <Trans>Field</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Before</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>After</Trans>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {changes.map(([field, change]) => (
              <Table.Tr key={field}>
                <Table.Td>{field}</Table.Td>
                {change.secret ? (
                  <Table.Td colSpan={2}>
                    <Text size="sm" c="dimmed" fs="italic">
                      <Trans>A secret: changed, its value is not recorded</Trans>
                    </Text>
                  </Table.Td>
                ) : (
                  <>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{shown(change.old)}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{shown(change.new)}</Table.Td>
                  </>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Text size="xs" c="dimmed">
        <Trans>
          Entry {seq}, hash <Code>{hash}</Code>
        </Trans>
      </Text>
    </Stack>
  );
}
