import { Text } from '@mantine/core';
import type { SandboxCapacity } from '../contract/sandboxes';

const sandboxes = (count: number) => (count === 1 ? 'sandbox' : 'sandboxes');

/**
 * "2 of 5 sandboxes running · 3 of 20 exist" (a member's own: "You may run 1 sandbox at once: 1
 * running · you have 2 of 3"): starting one more than may run pauses the oldest, so the numbers
 * are in view where sandboxes are started. Nothing when the server does not say.
 */
export function SandboxCapacityLine({ capacity }: { capacity: SandboxCapacity | undefined }) {
  if (!capacity) return null;
  const full = capacity.running >= capacity.max_running;
  const own = capacity.scope === 'user';
  const counts = own
    ? `You may run ${capacity.max_running} ${sandboxes(capacity.max_running)} at once: ${capacity.running} running · you have ${capacity.sandboxes} of ${capacity.max_sandboxes}`
    : `${capacity.running} of ${capacity.max_running} ${sandboxes(capacity.max_running)} running · ${capacity.sandboxes} of ${capacity.max_sandboxes} exist`;
  return (
    <Text size="sm" c="dimmed" mt={-12} mb="md" data-testid="sandbox-capacity">
      {counts}
      {full ? ` — starting another pauses ${own ? 'your' : 'the'} oldest running one` : ''}
    </Text>
  );
}
