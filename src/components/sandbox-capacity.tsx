import { Text } from '@mantine/core';
import type { SandboxCapacity } from '../contract/sandboxes';

/**
 * "2 of 5 sandboxes running · 3 of 20 exist": starting one more than may run pauses the oldest,
 * so the numbers are in view where sandboxes are started. Nothing when the server does not say.
 */
export function SandboxCapacityLine({ capacity }: { capacity: SandboxCapacity | undefined }) {
  if (!capacity) return null;
  const full = capacity.running >= capacity.max_running;
  return (
    <Text size="sm" c="dimmed" mt={-12} mb="md" data-testid="sandbox-capacity">
      {capacity.running} of {capacity.max_running} sandboxes running · {capacity.sandboxes} of {capacity.max_sandboxes} exist
      {full ? ' — starting another pauses the oldest running one' : ''}
    </Text>
  );
}
