import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import { Badge, Loader } from '@mantine/core';
import type { SandboxAction } from '../../api/sandboxes';
import { SANDBOX_STATUS, SandboxStatusBadge } from '../../components/sandbox-status-badge';
import type { SandboxStatus } from '../../contract/sandboxes';
import { ACTION_LABEL } from './action-text';

/** Every status the server has, plus what is under way right now ("Pausing…"). */
export function StatusBadge({ status, inFlight }: { status: SandboxStatus; inFlight?: SandboxAction }) {
  const { t } = useLingui();
  if (!inFlight) return <SandboxStatusBadge status={status} />;
  return (
    <Badge variant="light" color="orange" leftSection={<Loader size={10} color="orange" />} data-status="in-flight">
      {t(ACTION_LABEL[inFlight].doing)}
    </Badge>
  );
}

/** The status filter's choices, in the console's language. */
export const statusOptions = (translate: (label: MessageDescriptor) => string) =>
  (Object.keys(SANDBOX_STATUS) as SandboxStatus[]).map((status) => ({ value: status, label: translate(SANDBOX_STATUS[status].label) }));
