import '@mantine/charts/styles.css';
import { useLingui } from '@lingui/react/macro';
import { AreaChart, BarChart } from '@mantine/charts';
import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Usage } from '../../contract/usage';
import { formatCost, formatCount, formatHours, userLabel } from './figures';

const COLORS = ['blue.6', 'teal.6', 'orange.6', 'grape.6', 'red.6', 'cyan.6', 'lime.6', 'pink.6', 'indigo.6', 'yellow.6'];
/** Beyond this many users or models, the rest are one series. */
const MAX_SERIES = 8;

function Chart({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" role="figure" aria-label={title}>
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** Per day, one series per key (`by`), the largest first and the rest as `others`. */
function seriesByDay<Row extends { day: string }>(
  usage: Usage,
  rows: Row[],
  keyOf: (row: Row) => string,
  value: (row: Row) => number,
  others: string,
) {
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(keyOf(row), (totals.get(keyOf(row)) ?? 0) + value(row));
  const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([key]) => key);
  const shown = new Set(ranked.slice(0, MAX_SERIES));
  const keys = [...ranked.slice(0, MAX_SERIES), ...(ranked.length > MAX_SERIES ? [others] : [])];
  const data = usage.days.map(
    ({ day }) => Object.fromEntries([['day', day], ...keys.map((key) => [key, 0])]) as Record<string, string | number>,
  );
  const index = new Map(usage.days.map(({ day }, at) => [day, at]));
  for (const row of rows) {
    const point = data[index.get(row.day) ?? -1];
    if (!point) continue;
    const key = shown.has(keyOf(row)) ? keyOf(row) : others;
    point[key] = (point[key] as number) + value(row);
  }
  return { data, keys };
}

/** Cost and tokens over time, by user and by model, and sandbox hours: loaded on demand (the charts library is large). */
export default function UsageCharts({ usage, everyone }: { usage: Usage; everyone: boolean }) {
  const { t, i18n } = useLingui();
  const cost = (value: number) => formatCost(i18n, value);
  const count = (value: number) => formatCount(i18n, value);
  const names = new Map(usage.users.map((user) => [user.user_id, userLabel(user)]));
  const others = t`Others`;
  const daily = usage.days.map((day) => ({
    day: day.day,
    cost: day.cost,
    input: day.prompt_tokens,
    output: day.completion_tokens,
    hours: Math.round((day.sandbox_seconds / 3600) * 100) / 100,
  }));
  const byUser = seriesByDay(
    usage,
    usage.by_user_day,
    (row) => names.get(row.user_id) ?? row.user_id,
    (row) => row.cost,
    others,
  );
  const byModel = seriesByDay(
    usage,
    usage.by_model_day,
    (row) => row.model,
    (row) => row.cost,
    others,
  );
  const colored = (keys: string[]) => keys.map((name, at) => ({ name, color: COLORS[at % COLORS.length]! }));
  const common = { h: 220, data: daily, dataKey: 'day', withLegend: true, tickLine: 'y' as const };
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
      <Chart title={t`Cost per day`}>
        <AreaChart {...common} series={[{ name: 'cost', label: t`Cost`, color: 'blue.6' }]} valueFormatter={cost} />
      </Chart>
      <Chart title={t`Tokens per day`}>
        <BarChart
          {...common}
          type="stacked"
          series={[
            { name: 'input', label: t`Input tokens`, color: 'teal.6' },
            { name: 'output', label: t`Output tokens`, color: 'orange.6' },
          ]}
          valueFormatter={count}
        />
      </Chart>
      {everyone && (
        <Chart title={t`Cost per day by user`}>
          {byUser.keys.length === 0 ? (
            <Text c="dimmed">{t`No LLM calls in this range.`}</Text>
          ) : (
            <BarChart {...common} data={byUser.data} type="stacked" series={colored(byUser.keys)} valueFormatter={cost} />
          )}
        </Chart>
      )}
      <Chart title={t`Cost per day by model`}>
        {byModel.keys.length === 0 ? (
          <Text c="dimmed">{t`No LLM calls in this range.`}</Text>
        ) : (
          <BarChart {...common} data={byModel.data} type="stacked" series={colored(byModel.keys)} valueFormatter={cost} />
        )}
      </Chart>
      <Chart title={t`Sandbox hours per day`}>
        <BarChart
          {...common}
          series={[{ name: 'hours', label: t`Sandbox hours`, color: 'grape.6' }]}
          valueFormatter={(hours) => formatHours(i18n, hours * 3600)}
        />
      </Chart>
    </SimpleGrid>
  );
}
