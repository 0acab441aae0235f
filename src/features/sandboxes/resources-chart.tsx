import '@mantine/charts/styles.css';
import { useLingui } from '@lingui/react/macro';
import { LineChart } from '@mantine/charts';
import { Stack, Title } from '@mantine/core';
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
  return (
    <Stack gap="lg">
      <Stack gap="xs" role="figure" aria-label={t`CPU over the last hour`}>
        <Title order={3} size="h5">{t`CPU`}</Title>
        <LineChart
          {...common}
          series={[{ name: 'cpu', label: t`CPU`, color: 'blue.6' }]}
          valueFormatter={(value) => formatCpu(i18n, value)}
          yAxisProps={{ domain: [0, cpuLimit ?? 'auto'] }}
          referenceLines={limitLine(cpuLimit, t`Limit`)}
        />
      </Stack>
      <Stack gap="xs" role="figure" aria-label={t`Memory over the last hour`}>
        <Title order={3} size="h5">{t`Memory`}</Title>
        <LineChart
          {...common}
          series={[{ name: 'memory', label: t`Memory`, color: 'teal.6' }]}
          valueFormatter={(value) => formatBytes(i18n, value)}
          referenceLines={limitLine(limits?.memory_bytes, t`Limit`)}
        />
      </Stack>
      <Stack gap="xs" role="figure" aria-label={t`Workspace disk over the last hour`}>
        <Title order={3} size="h5">{t`Workspace disk`}</Title>
        <LineChart
          {...common}
          series={[{ name: 'disk', label: t`Workspace disk`, color: 'grape.6' }]}
          valueFormatter={(value) => formatBytes(i18n, value)}
          referenceLines={limitLine(limits?.disk_bytes, t`Limit`)}
        />
      </Stack>
    </Stack>
  );
}
