import '@mantine/charts/styles.css';
import { useLingui } from '@lingui/react/macro';
import { LineChart } from '@mantine/charts';
import { Stack } from '@mantine/core';
import { ChartFigure } from '../../components/chart-figure';
import type { SandboxResources } from '../../contract/sandbox-resources';
import { formatBytes, formatCpu } from './resource-figures';

/** A sandbox's last hour: CPU, memory and disk, each against its limit. Loaded on demand (the charts library is large). */
export default function ResourcesChart({ resources }: { resources: SandboxResources }) {
  const { t, i18n } = useLingui();
  const time = (iso: string) => i18n.date(iso, { hour: '2-digit', minute: '2-digit' });
  const data = resources.samples.map((sample) => ({
    at: time(sample.at),
    cpu: sample.cpu_percent,
    memory: sample.memory_bytes,
    disk: sample.disk_bytes ?? 0,
  }));
  const { limits } = resources;
  const cpuLimit = limits ? limits.cpus * 100 : undefined;
  const common = { h: 180, data, dataKey: 'at', withDots: false, curveType: 'linear' as const };
  const limitLine = (y: number | null | undefined, label: string) => (y ? [{ y, label, color: 'red.6', strokeDasharray: '4 4' }] : []);
  /** The chart in a sentence: the last look, and the most of the hour. */
  const summary = (key: 'cpu' | 'memory' | 'disk', format: (value: number) => string) => {
    const latest = format(data.at(-1)?.[key] ?? 0);
    const highest = format(Math.max(0, ...data.map((point) => point[key])));
    return t`Now ${latest}, at most ${highest}.`;
  };
  const cpu = (value: number) => formatCpu(i18n, value);
  const bytes = (value: number) => formatBytes(i18n, value);
  return (
    <Stack gap="lg">
      <ChartFigure title={t`CPU over the last hour`} summary={summary('cpu', cpu)}>
        <LineChart
          {...common}
          series={[{ name: 'cpu', label: t`CPU`, color: 'blue.6' }]}
          valueFormatter={cpu}
          yAxisProps={{ domain: [0, cpuLimit ?? 'auto'] }}
          referenceLines={limitLine(cpuLimit, t`Limit`)}
        />
      </ChartFigure>
      <ChartFigure title={t`Memory over the last hour`} summary={summary('memory', bytes)}>
        <LineChart
          {...common}
          series={[{ name: 'memory', label: t`Memory`, color: 'teal.6' }]}
          valueFormatter={bytes}
          referenceLines={limitLine(limits?.memory_bytes, t`Limit`)}
        />
      </ChartFigure>
      <ChartFigure title={t`Workspace disk over the last hour`} summary={summary('disk', bytes)}>
        <LineChart
          {...common}
          series={[{ name: 'disk', label: t`Workspace disk`, color: 'grape.6' }]}
          valueFormatter={bytes}
          referenceLines={limitLine(limits?.disk_bytes, t`Limit`)}
        />
      </ChartFigure>
    </Stack>
  );
}
