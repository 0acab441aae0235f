import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Paper, Progress, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { LoadingSkeleton } from '../../components/query-content';
import type { Usage, UsageUser } from '../../contract/usage';
import { formatCost, formatCount, formatHours, shiftDay, userLabel } from './figures';

const UsageCharts = lazy(() => import('./usage-charts'));

export interface UsageRange {
  from: string;
  to: string;
}

export interface UsageViewProps {
  usage: Usage;
  /** Everyone's figures (an owner or admin), with a user to narrow them to. */
  everyone: boolean;
  /** The user the figures are narrowed to (an admin's choice), if any. */
  userId: string | undefined;
  onRange: (range: UsageRange) => void;
  onUser: (userId: string | undefined) => void;
  onExport: () => void;
  exporting: boolean;
  /** Today, as the server counts days (UTC). */
  today: string;
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size="xl" fw={700} aria-label={label}>
        {value}
      </Text>
    </Paper>
  );
}

/** This month's cost against the user's monthly limit. */
function Budget({ user }: { user: UsageUser }) {
  const { t, i18n } = useLingui();
  const spent = formatCost(i18n, user.month_cost);
  if (user.monthly_cost_limit === null) return <Text size="sm">{t`${spent} this month, no limit`}</Text>;
  const limit = formatCost(i18n, user.monthly_cost_limit);
  const share = user.monthly_cost_limit > 0 ? Math.min(100, (user.month_cost / user.monthly_cost_limit) * 100) : 100;
  return (
    <Stack gap={4}>
      <Text size="sm">{t`${spent} of ${limit} this month`}</Text>
      <Progress value={share} color={share >= 100 ? 'red' : share >= 80 ? 'orange' : 'blue'} aria-label={t`Monthly budget used`} />
    </Stack>
  );
}

/** Usage and cost over a range: totals, charts, each user (with their budget) and each model. */
export function UsageView({ usage, everyone, userId, onRange, onUser, onExport, exporting, today }: UsageViewProps) {
  const { t, i18n } = useLingui();
  const cost = (amount: number) => formatCost(i18n, amount);
  const count = (value: number) => formatCount(i18n, value);
  const tokens = usage.totals.prompt_tokens + usage.totals.completion_tokens;
  const last = (days: number) => onRange({ from: shiftDay(today, 1 - days), to: today });
  return (
    <Stack gap="xl">
      <Group align="flex-end" wrap="wrap">
        <TextInput
          type="date"
          label={t`From`}
          value={usage.from}
          max={usage.to}
          onChange={(event) => event.currentTarget.value && onRange({ from: event.currentTarget.value, to: usage.to })}
        />
        <TextInput
          type="date"
          label={t`To`}
          value={usage.to}
          min={usage.from}
          onChange={(event) => event.currentTarget.value && onRange({ from: usage.from, to: event.currentTarget.value })}
        />
        <Button.Group>
          <Button variant="default" onClick={() => last(7)}>
            <Trans>7 days</Trans>
          </Button>
          <Button variant="default" onClick={() => last(30)}>
            <Trans>30 days</Trans>
          </Button>
          <Button variant="default" onClick={() => last(90)}>
            <Trans>90 days</Trans>
          </Button>
        </Button.Group>
        {everyone && (
          <Select
            label={t`User`}
            placeholder={t`Everyone`}
            clearable
            value={userId ?? null}
            data={usage.users.map((user) => ({ value: user.user_id, label: userLabel(user) }))}
            onChange={(value) => onUser(value ?? undefined)}
          />
        )}
        <Button variant="light" leftSection={<IconDownload size={16} />} onClick={onExport} loading={exporting} ml="auto">
          <Trans>Export CSV</Trans>
        </Button>
      </Group>

      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Figure label={t`Cost`} value={cost(usage.totals.cost)} />
        <Figure label={t`Tokens`} value={count(tokens)} />
        <Figure label={t`Sandbox hours`} value={formatHours(i18n, usage.totals.sandbox_seconds)} />
        <Figure label={t`Conversations started`} value={count(usage.totals.conversations)} />
      </SimpleGrid>

      <Suspense fallback={<LoadingSkeleton what={t`charts`} height={480} />}>
        <UsageCharts usage={usage} everyone={everyone && userId === undefined} />
      </Suspense>

      <Stack gap="xs">
        <Title order={2} size="h4">
          {everyone ? <Trans>By user</Trans> : <Trans>Your usage</Trans>}
        </Title>
        <Table.ScrollContainer minWidth={720} type="native">
          <Table striped aria-label={t`Usage by user`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t`User`}</Table.Th>
                <Table.Th ta="right">{t`Cost`}</Table.Th>
                <Table.Th ta="right">{t`Input tokens`}</Table.Th>
                <Table.Th ta="right">{t`Output tokens`}</Table.Th>
                <Table.Th ta="right">{t`LLM calls`}</Table.Th>
                <Table.Th ta="right">{t`Sandbox hours`}</Table.Th>
                <Table.Th ta="right">{t`Conversations`}</Table.Th>
                <Table.Th>{t`Monthly budget`}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {usage.users.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={8}>
                    <Text c="dimmed">{t`Nothing was used in this range.`}</Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {usage.users.map((user) => (
                <Table.Tr key={user.user_id}>
                  <Table.Td>{userLabel(user)}</Table.Td>
                  <Table.Td ta="right">{cost(user.cost)}</Table.Td>
                  <Table.Td ta="right">{count(user.prompt_tokens)}</Table.Td>
                  <Table.Td ta="right">{count(user.completion_tokens)}</Table.Td>
                  <Table.Td ta="right">{count(user.calls)}</Table.Td>
                  <Table.Td ta="right">{formatHours(i18n, user.sandbox_seconds)}</Table.Td>
                  <Table.Td ta="right">{count(user.conversations)}</Table.Td>
                  <Table.Td miw={180}>
                    <Budget user={user} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>

      <Stack gap="xs">
        <Title order={2} size="h4">
          <Trans>By model</Trans>
        </Title>
        <Table.ScrollContainer minWidth={560} type="native">
          <Table striped aria-label={t`Usage by model`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t`Model`}</Table.Th>
                <Table.Th ta="right">{t`Cost`}</Table.Th>
                <Table.Th ta="right">{t`Input tokens`}</Table.Th>
                <Table.Th ta="right">{t`Output tokens`}</Table.Th>
                <Table.Th ta="right">{t`Cache reads`}</Table.Th>
                <Table.Th ta="right">{t`LLM calls`}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {usage.models.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={6}>
                    <Text c="dimmed">{t`No LLM calls in this range.`}</Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {usage.models.map((model) => (
                <Table.Tr key={model.model}>
                  <Table.Td>{model.model === 'unknown' ? t`(not named)` : model.model}</Table.Td>
                  <Table.Td ta="right">{cost(model.cost)}</Table.Td>
                  <Table.Td ta="right">{count(model.prompt_tokens)}</Table.Td>
                  <Table.Td ta="right">{count(model.completion_tokens)}</Table.Td>
                  <Table.Td ta="right">{count(model.cache_read_tokens)}</Table.Td>
                  <Table.Td ta="right">{count(model.calls)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </Stack>
  );
}
