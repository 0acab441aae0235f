import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Text } from '@mantine/core';
import type { SandboxCapacity } from '../contract/sandboxes';

/**
 * "2 of 5 sandboxes running · 3 of 20 exist" (a member's own: "You may run 1 sandbox at once: 1
 * running · you have 2 of 3"): starting one more than may run pauses the oldest, so the numbers
 * are in view where sandboxes are started. Nothing when the server does not say.
 */
export function SandboxCapacityLine({ capacity }: { capacity: SandboxCapacity | undefined }) {
  const { t } = useLingui();
  if (!capacity) return null;
  const { running, max_running: maxRunning, sandboxes, max_sandboxes: maxSandboxes } = capacity;
  const full = running >= maxRunning;
  const own = capacity.scope === 'user';
  const counts = own
    ? t`You may run ${plural(maxRunning, { one: '# sandbox', other: '# sandboxes' })} at once: ${running} running · you have ${sandboxes} of ${maxSandboxes}`
    : t`${running} of ${plural(maxRunning, { one: '# sandbox', other: '# sandboxes' })} running · ${sandboxes} of ${maxSandboxes} exist`;
  const whenFull = own ? t`starting another pauses your oldest running one` : t`starting another pauses the oldest running one`;
  return (
    <Text size="sm" c="dimmed" mt={-12} mb="md" data-testid="sandbox-capacity">
      {counts}
      {full ? ` — ${whenFull}` : ''}
    </Text>
  );
}
