import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { StartTask } from '../../../contract/conversations';
import { conversationKeys } from '../../../queries/conversations';
import { startTask } from '../../../testing/conversations';
import { fakeApi, json, testQueryClient } from '../../../testing/fake-api';
import { useStartsUnderWay } from './use-starts-under-way';

/** The hook over a server whose starts of the last hour are `tasks` (changed with `setTasks`), with a list and count in the cache. */
function watch(first: StartTask[]) {
  let tasks = first;
  fakeApi({ 'GET /api/v1/app-conversations/start-tasks/search': () => json(200, { items: tasks, next_page_id: null }) });
  const queryClient = testQueryClient();
  queryClient.setQueryData(conversationKeys.list({}), { pages: [], pageParams: [] });
  queryClient.setQueryData(conversationKeys.count({}), 0);
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  const hook = renderHook(() => useStartsUnderWay('ada'), { wrapper });
  const listRead = () =>
    [conversationKeys.list({}), conversationKeys.count({})].map((queryKey) => queryClient.getQueryState(queryKey)?.isInvalidated);
  const setTasks = async (next: StartTask[]) => {
    tasks = next;
    await act(() => queryClient.refetchQueries({ queryKey: conversationKeys.tasks() }));
  };
  return { ...hook, listRead, setTasks };
}

describe('useStartsUnderWay', () => {
  it('reads the list and its count again once a start leaves the ones under way, not when they first load', async () => {
    const { result, listRead, setTasks, unmount } = watch([startTask('WORKING', { id: 'a' }), startTask('WORKING', { id: 'b' })]);
    await waitFor(() => expect(result.current.tasks).toHaveLength(2));
    expect(listRead()).toEqual([false, false]);
    await setTasks([startTask('WORKING', { id: 'a' }), startTask('ERROR', { id: 'b' })]);
    await waitFor(() => expect(listRead()).toEqual([true, true]));
    // A failed start stays, with its reason, until dismissed.
    expect(result.current.tasks.map((task) => [task.id, task.status])).toEqual([
      ['a', 'WORKING'],
      ['b', 'ERROR'],
    ]);
    unmount();
  });

  it('leaves out the starts this user dismissed', async () => {
    const { result, unmount } = watch([startTask('ERROR', { id: 'a' }), startTask('ERROR', { id: 'b' })]);
    await waitFor(() => expect(result.current.tasks).toHaveLength(2));
    act(() => result.current.dismiss('a'));
    expect(result.current.tasks.map((task) => task.id)).toEqual(['b']);
    unmount();
  });
});
