import { useLocalStorage } from '@mantine/hooks';
import { useMemo } from 'react';

/** How many dismissed starts this browser remembers per user: a start shows for an hour at most, so a few suffice. */
const REMEMBERED = 50;

/**
 * The starts a user dismissed, remembered in this browser across visits and server restarts, per
 * user: a start an admin dismissed still shows to the member whose it is.
 */
export function useDismissedStarts(userId: string | null): [ReadonlySet<string>, (taskId: string) => void] {
  const [byUser, setByUser] = useLocalStorage<Record<string, string[]>>({
    key: 'agent-console:dismissed-starts',
    defaultValue: {},
    getInitialValueInEffect: false,
  });
  const user = userId ?? '';
  const dismissed = useMemo(() => new Set(byUser[user] ?? []), [byUser, user]);
  const dismiss = (taskId: string) =>
    setByUser((current) => ({ ...current, [user]: [...(current[user] ?? []).filter((id) => id !== taskId), taskId].slice(-REMEMBERED) }));
  return [dismissed, dismiss];
}
