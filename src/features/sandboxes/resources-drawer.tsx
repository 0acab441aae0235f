import { Trans, useLingui } from '@lingui/react/macro';
import { Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { LoadingSkeleton, QueryContent } from '../../components/query-content';
import { ShortId } from '../../components/short-id';
import { sandboxResourcesQuery } from '../../queries/usage';
import { formatBytes } from './resource-figures';
import { type SandboxPanelProps, SandboxPanel } from './sandbox-panel';

const ResourcesChart = lazy(() => import('./resources-chart'));

/** What a sandbox used over the last hour, against its limits; read again every few seconds while open. */
export function ResourcesDrawer({ sandboxId, onClose }: SandboxPanelProps) {
  const { t, i18n } = useLingui();
  const resources = useQuery(sandboxResourcesQuery(sandboxId));
  return (
    <SandboxPanel
      onClose={onClose}
      title={
        <Trans>
          Resource use of <ShortId id={sandboxId} />
        </Trans>
      }
    >
      <QueryContent query={resources} what={t`resource use`}>
        {(data) => {
          const { limits } = data;
          const cpus = limits ? i18n.number(limits.cpus, { maximumFractionDigits: 1 }) : '';
          const memory = limits?.memory_bytes ? formatBytes(i18n, limits.memory_bytes) : t`the machine’s`;
          const disk = limits?.disk_bytes ? formatBytes(i18n, limits.disk_bytes) : t`the machine’s`;
          return (
            <Stack>
              <Text size="sm" c="dimmed">
                {data.samples.length === 0
                  ? t`Nothing measured in the last hour: it is not running, or has only just started.`
                  : t`Looked at every few seconds while it runs; the last hour is kept.`}
              </Text>
              {limits && <Text size="sm">{t`Limits: ${cpus} CPUs, memory ${memory}, disk ${disk}`}</Text>}
              {data.samples.length > 0 && (
                <Suspense fallback={<LoadingSkeleton what={t`charts`} height={560} />}>
                  <ResourcesChart resources={data} />
                </Suspense>
              )}
            </Stack>
          );
        }}
      </QueryContent>
    </SandboxPanel>
  );
}
