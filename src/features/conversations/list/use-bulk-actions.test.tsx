import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appConversation } from '../../../testing/conversations';
import { fakeApi, json, testQueryClient } from '../../../testing/fake-api';
import { useBulkActions } from './use-bulk-actions';

afterEach(() => vi.restoreAllMocks());

const items = [
  appConversation({ id: 'a', title: 'A' }),
  appConversation({ id: 'b', title: 'B' }),
  appConversation({ id: 'c', title: 'C' }),
];

/** The hook over `items`, with `a` and `b` selected and `action` asked for. */
function asked(action: 'archive' | 'delete') {
  const show = vi.spyOn(notifications, 'show').mockReturnValue('');
  const queryClient = testQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </I18nProvider>
  );
  const hook = renderHook(() => useBulkActions(items), { wrapper });
  act(() => hook.result.current.setSelected(new Set(['a', 'b'])));
  act(() => hook.result.current.ask(action));
  return { ...hook, show };
}

describe('useBulkActions', () => {
  it('runs the action on each selected conversation once confirmed, then clears the selection and says so', async () => {
    const api = fakeApi({
      'PATCH /api/v1/app-conversations/a': () => json(200, appConversation({ id: 'a', archived: true })),
      'PATCH /api/v1/app-conversations/b': () => json(200, appConversation({ id: 'b', archived: true })),
    });
    const { result, show } = asked('archive');
    expect(result.current.selection.map((conversation) => conversation.id)).toEqual(['a', 'b']);
    act(() => result.current.confirm());
    await waitFor(() => expect(show).toHaveBeenCalledWith(expect.objectContaining({ color: 'teal', title: 'Archived 2 conversations' })));
    expect(api.requests.filter((request) => request.method === 'PATCH').map(({ url, body }) => [url, body])).toEqual([
      ['/api/v1/app-conversations/a', { archived: true }],
      ['/api/v1/app-conversations/b', { archived: true }],
    ]);
    expect([result.current.selected.size, result.current.asked, result.current.running]).toEqual([0, null, false]);
  });

  it('goes on past a conversation that fails, and names it in the end', async () => {
    fakeApi({
      'DELETE /api/conversations/a': () => json(500, { detail: 'Internal Server Error' }),
      'DELETE /api/conversations/b': () => json(200, true),
    });
    const { result, show } = asked('delete');
    act(() => result.current.confirm());
    await waitFor(() => expect(show).toHaveBeenCalledTimes(1));
    expect(show.mock.calls[0]![0]).toMatchObject({ color: 'red', title: 'Deleted 1 of 2', message: expect.stringMatching(/^A: /) });
  });
});
