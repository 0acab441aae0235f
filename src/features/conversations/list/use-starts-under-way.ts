import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { conversationKeys, tasksInFlightQuery } from '../../../queries/conversations';
import { useDismissedStarts } from './use-dismissed-starts';

/** Starts of the last hour show at the top while they run (or failed). */
const TASK_WINDOW_MS = 60 * 60 * 1000;

/**
 * The starts under way, and the failed ones this user has not dismissed, polled while any runs
 * (`tasksInFlightQuery`). A start that leaves them (READY, or failed) joins the list: the list and
 * its count are read again.
 */
export function useStartsUnderWay(signedInUserId: string | null) {
  const queryClient = useQueryClient();
  const [since] = useState(() => new Date(Date.now() - TASK_WINDOW_MS).toISOString());
  const tasks = useQuery(tasksInFlightQuery(since));
  const [dismissed, dismiss] = useDismissedStarts(signedInUserId);
  const underWay = useMemo(
    () => new Set((tasks.data ?? []).filter((task) => task.status !== 'ERROR').map((task) => task.id)),
    [tasks.data],
  );
  // Not on mount: the list asked for before the first render is as fresh as it gets.
  const wasUnderWay = useRef(underWay);
  useEffect(() => {
    const left = [...wasUnderWay.current].some((id) => !underWay.has(id));
    wasUnderWay.current = underWay;
    if (!left) return;
    void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: conversationKeys.counts() });
  }, [underWay, queryClient]);
  return { tasks: (tasks.data ?? []).filter((task) => !dismissed.has(task.id)), dismiss };
}
