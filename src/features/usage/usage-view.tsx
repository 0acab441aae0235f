import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Paper, Progress, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { LoadingSkeleton } from '../../components/query-content';
import type { Usage, UsageUser } from '../../contract/usage';
import { formatCost, formatCount, formatHours, shiftDay, userLabel } from './figures';
import { UsageTable } from './usage-table';

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

      <UsageTable
        heading={everyone ? <Trans>By user</Trans> : <Trans>Your usage</Trans>}
        label={t`Usage by user`}
        minWidth={720}
        rows={usage.users}
        rowKey={(user) => user.user_id}
        empty={t`Nothing was used in this range.`}
        columns={[
          { header: t`User`, cell: userLabel },
          { header: t`Cost`, figure: true, cell: (user) => cost(user.cost) },
          { header: t`Input tokens`, figure: true, cell: (user) => count(user.prompt_tokens) },
          { header: t`Output tokens`, figure: true, cell: (user) => count(user.completion_tokens) },
          { header: t`LLM calls`, figure: true, cell: (user) => count(user.calls) },
          { header: t`Sandbox hours`, figure: true, cell: (user) => formatHours(i18n, user.sandbox_seconds) },
          { header: t`Conversations`, figure: true, cell: (user) => count(user.conversations) },
          { header: t`Monthly budget`, minWidth: 180, cell: (user) => <Budget user={user} /> },
        ]}
      />

      <UsageTable
        heading={<Trans>By model</Trans>}
        label={t`Usage by model`}
        minWidth={560}
        rows={usage.models}
        rowKey={(model) => model.model}
        empty={t`No LLM calls in this range.`}
        columns={[
          { header: t`Model`, cell: (model) => (model.model === 'unknown' ? t`(not named)` : model.model) },
          { header: t`Cost`, figure: true, cell: (model) => cost(model.cost) },
          { header: t`Input tokens`, figure: true, cell: (model) => count(model.prompt_tokens) },
          { header: t`Output tokens`, figure: true, cell: (model) => count(model.completion_tokens) },
          { header: t`Cache reads`, figure: true, cell: (model) => count(model.cache_read_tokens) },
          { header: t`LLM calls`, figure: true, cell: (model) => count(model.calls) },
        ]}
      />
    </Stack>
  );
}
