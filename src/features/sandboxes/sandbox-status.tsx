import { useLingui } from '@lingui/react/macro';
import { Stack, Text } from '@mantine/core';
import type { SandboxAction } from '../../api/sandboxes';
import type { SandboxInfo, SandboxRuntimeName } from '../../contract/sandboxes';
import { statusReason } from './status-reason';
import { StatusBadge } from './status-badge';

/** Red text that keeps AA contrast in both schemes, on a plain or a selected row. */
const REASON_COLOR = 'var(--mantine-color-red-light-color)';

interface SandboxStatusProps {
  sandbox: SandboxInfo;
  inFlight: SandboxAction | undefined;
  runtime: SandboxRuntimeName | undefined;
}

/** Why the sandbox failed or is gone (nothing while an action on it is under way). */
export function StatusReason({ sandbox, inFlight, runtime }: SandboxStatusProps) {
  const { i18n } = useLingui();
  const reason = inFlight ? undefined : statusReason(i18n, sandbox, runtime);
  if (!reason) return null;
  return (
    <Text size="xs" style={{ color: REASON_COLOR }} data-testid="status-reason">
      {reason}
    </Text>
  );
}

/** The status badge, and under it why the sandbox failed or is gone. */
export function SandboxStatus(props: SandboxStatusProps) {
  return (
    <Stack gap={2} align="flex-start" miw={150} maw={260}>
      <StatusBadge status={props.sandbox.status} inFlight={props.inFlight} />
      <StatusReason {...props} />
    </Stack>
  );
}
