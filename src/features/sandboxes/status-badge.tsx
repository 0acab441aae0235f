import { Badge, Loader } from '@mantine/core';
import type { SandboxAction } from '../../api/sandboxes';
import type { SandboxStatus } from '../../contract/sandboxes';
import { ACTION_LABEL } from './actions';

const STATUS: Record<SandboxStatus, { label: string; color: string }> = {
  STARTING: { label: 'Starting', color: 'blue' },
  RUNNING: { label: 'Running', color: 'teal' },
  PAUSED: { label: 'Paused', color: 'yellow' },
  ERROR: { label: 'Error', color: 'red' },
  MISSING: { label: 'Missing', color: 'gray' },
};

/** Every status the server has, plus what is under way right now ("Pausing…"). */
export function StatusBadge({ status, inFlight }: { status: SandboxStatus; inFlight?: SandboxAction }) {
  if (inFlight) {
    return (
      <Badge variant="light" color="orange" leftSection={<Loader size={10} color="orange" />} data-status="in-flight">
        {ACTION_LABEL[inFlight].doing}
      </Badge>
    );
  }
  const { label, color } = STATUS[status];
  return (
    <Badge variant="light" color={color} leftSection={status === 'STARTING' ? <Loader size={10} /> : undefined} data-status={status}>
      {label}
    </Badge>
  );
}

export const STATUS_OPTIONS = (Object.keys(STATUS) as SandboxStatus[]).map((status) => ({ value: status, label: STATUS[status].label }));
