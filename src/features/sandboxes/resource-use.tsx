import { useLingui } from '@lingui/react/macro';
import { UnstyledButton, Text } from '@mantine/core';
import type { LatestResources } from '../../contract/sandbox-resources';
import { formatBytes, formatCpu } from './resource-figures';

// It may wrap: the Sandboxes table keeps every column in view at 1400 px.
const DOTTED = { textDecorationLine: 'underline', textDecorationStyle: 'dotted' } as const;

export type ResourceLook = LatestResources[number];

/** A sandbox's last look at its CPU and memory (and disk), which opens its last hour. */
export function ResourceUse({ look, sandboxId, onOpen }: { look: ResourceLook | undefined; sandboxId: string; onOpen?: () => void }) {
  const { t, i18n } = useLingui();
  const latest = look?.latest;
  if (!latest)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  const cpu = formatCpu(i18n, latest.cpu_percent);
  const memory = formatBytes(i18n, latest.memory_bytes);
  const text = t`CPU ${cpu} · ${memory}`;
  return (
    <UnstyledButton onClick={onOpen} aria-label={t`Resource use of ${sandboxId}: CPU ${cpu}, memory ${memory}`} data-resource-use>
      <Text size="sm" style={DOTTED}>
        {text}
      </Text>
    </UnstyledButton>
  );
}
