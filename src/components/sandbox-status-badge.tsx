import { Badge, Loader } from '@mantine/core';
import type { SandboxStatus } from '../contract/sandboxes';

export const SANDBOX_STATUS: Record<SandboxStatus, { label: string; color: string }> = {
  STARTING: { label: 'Starting', color: 'blue' },
  RUNNING: { label: 'Running', color: 'teal' },
  PAUSED: { label: 'Paused', color: 'yellow' },
  ERROR: { label: 'Error', color: 'red' },
  MISSING: { label: 'Missing', color: 'gray' },
};

/** A sandbox's status as a badge (the Sandboxes page and every conversation show it alike). */
export function SandboxStatusBadge({ status }: { status: SandboxStatus }) {
  const { label, color } = SANDBOX_STATUS[status];
  return (
    <Badge variant="light" color={color} leftSection={status === 'STARTING' ? <Loader size={10} /> : undefined} data-status={status}>
      {label}
    </Badge>
  );
}
