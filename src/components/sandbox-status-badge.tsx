import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Badge, Loader } from '@mantine/core';
import type { SandboxStatus } from '../contract/sandboxes';

export const SANDBOX_STATUS: Record<SandboxStatus, { label: MessageDescriptor; color: string }> = {
  STARTING: { label: msg`Starting`, color: 'blue' },
  RUNNING: { label: msg`Running`, color: 'teal' },
  PAUSED: { label: msg`Paused`, color: 'yellow' },
  ERROR: { label: msg`Error`, color: 'red' },
  MISSING: { label: msg`Missing`, color: 'gray' },
};

/** A sandbox's status as a badge (the Sandboxes page and every conversation show it alike). */
export function SandboxStatusBadge({ status }: { status: SandboxStatus }) {
  const { t } = useLingui();
  const { label, color } = SANDBOX_STATUS[status];
  return (
    <Badge variant="light" color={color} leftSection={status === 'STARTING' ? <Loader size={10} /> : undefined} data-status={status}>
      {t(label)}
    </Badge>
  );
}
