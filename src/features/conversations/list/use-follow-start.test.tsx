import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StartTask } from '../../../contract/conversations';
import { conversationKeys } from '../../../queries/conversations';
import { startTask } from '../../../testing/conversations';
import { fakeApi, json, testQueryClient } from '../../../testing/fake-api';
import { startingNoticeId } from './starting-notice';
import { useFollowStart } from './use-follow-start';

afterEach(() => vi.restoreAllMocks());

/** The hook on the list's page, over a server whose start task t1 is `first` (changed with `setTask`). */
function watch(first: StartTask) {
  let task = first;
  fakeApi({ 'GET /api/v1/app-conversations/start-tasks': () => json(200, [task]) });
  const show = vi.spyOn(notifications, 'show').mockReturnValue('');
  const hide = vi.spyOn(notifications, 'hide').mockReturnValue('');
  const queryClient = testQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/conversations']}>{children}</MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>
  );
  const hook = renderHook(() => ({ follow: useFollowStart(), path: useLocation().pathname }), { wrapper });
  const setTask = async (next: StartTask) => {
    task = next;
    await act(() => queryClient.refetchQueries({ queryKey: conversationKeys.task('t1') }));
  };
  return { ...hook, show, hide, setTask };
}

describe('useFollowStart', () => {
  it('opens the conversation once its start is READY, and takes the "Conversation starting" notice away then', async () => {
    const { result, hide, show, setTask, unmount } = watch(startTask('WAITING_FOR_SANDBOX'));
    act(() => result.current.follow('t1'));
    await setTask(startTask('STARTING_CONVERSATION'));
    expect(result.current.path).toBe('/conversations');
    expect(hide).not.toHaveBeenCalled();
    await setTask(startTask('READY', { app_conversation_id: 'c9' }));
    await waitFor(() => expect(result.current.path).toBe('/conversations/c9'));
    expect(hide).toHaveBeenCalledWith(startingNoticeId('t1'));
    expect(show).not.toHaveBeenCalled();
    unmount();
  });

  it('says which conversations the running cap paused for it, and opens none for a start that failed', async () => {
    const paused = watch(startTask('READY', { app_conversation_id: 'c9', detail: 'Paused: Fix the bug' }));
    act(() => paused.result.current.follow('t1'));
    await waitFor(() => expect(paused.result.current.path).toBe('/conversations/c9'));
    expect(paused.show).toHaveBeenCalledWith(
      expect.objectContaining({ title: 'Other conversations were paused', message: 'Paused: Fix the bug' }),
    );
    paused.unmount();

    const failed = watch(startTask('ERROR', { detail: 'No sandbox' }));
    act(() => failed.result.current.follow('t1'));
    await waitFor(() => expect(failed.hide).toHaveBeenCalledWith(startingNoticeId('t1')));
    expect(failed.result.current.path).toBe('/conversations');
    failed.unmount();
  });
});
