import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderView } from '../../../testing/render';
import { appConversation } from '../../../testing/conversations';
import { fakeApi, json, testQueryClient } from '../../../testing/fake-api';
import { conversationKeys } from '../../../queries/conversations';
import { sandboxKeys } from '../../../queries/sandboxes';
import { ConversationPage } from './conversation-page';

/** The page for conversation c1, its sandbox running; the server's features never arrive, so no events are read. */
function renderPage() {
  const api = fakeApi({
    'GET /openapi.json': () => new Promise<Response>(() => {}),
    'GET /api/v1/app-conversations': () => json(200, [appConversation()]),
    'POST /api/v1/sandboxes/sandbox-1/pause': () => json(200, { success: true }),
  });
  const queryClient = testQueryClient();
  queryClient.setQueryData(sandboxKeys.list({}), { items: [], next_page_id: null });
  renderView(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/conversations/c1']}>
          <Routes>
            <Route path="/conversations/:conversationId" element={<ConversationPage />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { api, queryClient };
}

describe('ConversationPage', () => {
  it("pausing the sandbox refreshes the sandbox lists (the mutation's own invalidation) and the conversation", async () => {
    const { api, queryClient } = renderPage();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Pause sandbox' }));
    await waitFor(() => expect(api.calls()).toContain('POST /api/v1/sandboxes/sandbox-1/pause'));
    await waitFor(() => expect(queryClient.getQueryState(sandboxKeys.list({}))?.isInvalidated).toBe(true));
    await waitFor(() => expect(api.calls().filter((call) => call.startsWith('GET /api/v1/app-conversations?'))).toHaveLength(2));
    expect(queryClient.getQueryData(conversationKeys.detail('c1'))).toMatchObject({ id: 'c1' });
  });
});
