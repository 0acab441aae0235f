import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { ExecutionStatus } from '../../../contract/conversations';
import { DEFAULT_SETTINGS } from '../../../contract/settings';
import { settingsKeys } from '../../../queries/settings';
import { useChimeWhenWaiting } from './use-chime-when-waiting';

/** The hook over a cache that holds Settings with sound on or off; the statuses it sees, one after another. */
function watch(sound: boolean, statuses: (ExecutionStatus | null)[]) {
  const client = new QueryClient();
  client.setQueryData(settingsKeys.current(), { ...DEFAULT_SETTINGS, enable_sound_notifications: sound });
  const chime = vi.fn();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const { rerender } = renderHook(({ status }: { status: ExecutionStatus | null }) => useChimeWhenWaiting(status, chime), {
    wrapper,
    initialProps: { status: statuses[0] ?? null },
  });
  for (const status of statuses.slice(1)) rerender({ status });
  return chime;
}

describe('useChimeWhenWaiting', () => {
  it('chimes when the agent starts waiting for the person, with sound on', async () => {
    const chime = watch(true, ['running', 'waiting_for_confirmation', 'running', 'finished']);
    await waitFor(() => expect(chime).toHaveBeenCalledTimes(2));
  });

  it('stays quiet with sound off, on the page opening on a waiting conversation, and while working', async () => {
    const off = watch(false, ['running', 'waiting_for_confirmation']);
    const opened = watch(true, [null, 'waiting_for_confirmation', 'waiting_for_confirmation']);
    const working = watch(true, ['idle', 'running', 'paused']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([off, opened, working].map((chime) => chime.mock.calls.length)).toEqual([0, 0, 0]);
  });
});
