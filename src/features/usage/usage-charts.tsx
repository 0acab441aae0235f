import '@mantine/charts/styles.css';
import { useLingui } from '@lingui/react/macro';
import { AreaChart, BarChart } from '@mantine/charts';
import { SimpleGrid } from '@mantine/core';
import { ChartFigure } from '../../components/chart-figure';
import type { Usage } from '../../contract/usage';
import { formatCost, formatCount, formatHours, userLabel } from './figures';

const COLORS = ['blue.6', 'teal.6', 'orange.6', 'grape.6', 'red.6', 'cyan.6', 'lime.6', 'pink.6', 'indigo.6', 'yellow.6'];
/** Beyond this many users or models, the rest are one series. */
const MAX_SERIES = 8;

type Point = Record<string, string | number>;

/** A chart's figures in a sentence: each series' total, and the day with the most. */
function useSummary() {
  const { t, i18n } = useLingui();
  return (data: Point[], series: { name: string; label?: string }[], format: (value: number) => string) => {
    const sum = (point: Point) => series.reduce((total, { name }) => total + Number(point[name] ?? 0), 0);
    const byDay = data.map(sum);
    const peak = Math.max(0, ...byDay);
    if (peak === 0) return t`Nothing in this range.`;
    // A series with nothing in the range (a user who called no LLM) is left out.
    const totals = series.flatMap(({ name, label = name }) => {
      const sum = data.reduce((total, point) => total + Number(point[name] ?? 0), 0);
      const value = format(sum);
      if (series.length === 1) return [value];
      return sum > 0 ? [t`${label}: ${value}`] : [];
    });
    const all = new Intl.ListFormat(i18n.locale, { type: 'unit', style: 'short' }).format(totals);
    // eslint-disable-next-line lingui/no-unlocalized-strings -- the day's start in ISO 8601, not words
    const day = i18n.date(`${data[byDay.indexOf(peak)]!.day}T00:00:00Z`, { month: 'short', day: 'numeric', timeZone: 'UTC' });
    const most = format(peak);
    return t`Total: ${all}. Highest on ${day}: ${most}.`;
  };
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
  const summary = useSummary();
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
  const hours = (value: number) => formatHours(i18n, value * 3600);
  const common = { h: 220, data: daily, dataKey: 'day', withLegend: true, tickLine: 'y' as const };
  const costSeries = [{ name: 'cost', label: t`Cost`, color: 'blue.6' }];
  const tokenSeries = [
    { name: 'input', label: t`Input tokens`, color: 'teal.6' },
    { name: 'output', label: t`Output tokens`, color: 'orange.6' },
  ];
  const hourSeries = [{ name: 'hours', label: t`Sandbox hours`, color: 'grape.6' }];
  const userSeries = colored(byUser.keys);
  const modelSeries = colored(byModel.keys);
  const noCalls = t`No LLM calls in this range.`;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
      <ChartFigure title={t`Cost per day`} summary={summary(daily, costSeries, cost)}>
        <AreaChart {...common} series={costSeries} valueFormatter={cost} />
      </ChartFigure>
      <ChartFigure title={t`Tokens per day`} summary={summary(daily, tokenSeries, count)}>
        <BarChart {...common} type="stacked" series={tokenSeries} valueFormatter={count} />
      </ChartFigure>
      {everyone && (
        <ChartFigure title={t`Cost per day by user`} summary={byUser.keys.length === 0 ? noCalls : summary(byUser.data, userSeries, cost)}>
          {byUser.keys.length > 0 && <BarChart {...common} data={byUser.data} type="stacked" series={userSeries} valueFormatter={cost} />}
        </ChartFigure>
      )}
      <ChartFigure
        title={t`Cost per day by model`}
        summary={byModel.keys.length === 0 ? noCalls : summary(byModel.data, modelSeries, cost)}
      >
        {byModel.keys.length > 0 && <BarChart {...common} data={byModel.data} type="stacked" series={modelSeries} valueFormatter={cost} />}
      </ChartFigure>
      <ChartFigure title={t`Sandbox hours per day`} summary={summary(daily, hourSeries, hours)}>
        <BarChart {...common} series={hourSeries} valueFormatter={hours} />
      </ChartFigure>
    </SimpleGrid>
  );
}
