import { useLingui } from '@lingui/react';
import { Badge } from '@mantine/core';
import type { ExecutionStatus } from '../../../contract/conversations';
import { EXECUTION } from './labels';

/** The agent's execution status; nothing while its sandbox does not run (there is no agent to ask). */
export function ExecutionBadge({ status }: { status: ExecutionStatus | null }) {
  const { _ } = useLingui();
  if (!status) return null;
  const { label, color } = EXECUTION[status];
  return (
    <Badge variant="outline" color={color} data-execution={status}>
      {_(label)}
    </Badge>
  );
}
