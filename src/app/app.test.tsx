import { act, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { expireSession, signIn, signOut } from '../api/session';
import { App } from './app';
import { createQueryClient } from './query-client';

const KEY = ['page', 'first-data'];

function renderApp() {
  const queryClient = createQueryClient();
  // The page's first data, as the router asks for it before the first render.
  queryClient.setQueryData(KEY, 'fresh');
  const router = createMemoryRouter([{ path: '/', element: <p>The page</p> }]);
  // As main.tsx renders it: StrictMode runs each effect twice on mount.
  render(
    <StrictMode>
      <App queryClient={queryClient} router={router} />
    </StrictMode>,
  );
  return queryClient;
}

describe('the cache and the session', () => {
  it('keeps the data asked for before the first render', async () => {
    signIn({ apiKey: 'key', baseUrl: '' });
    const queryClient = renderApp();
    expect(await screen.findByText('The page')).toBeInTheDocument();
    expect(queryClient.getQueryState(KEY)?.isInvalidated).toBe(false);
  });

  it('asks again for what it holds when the user is back after an expiry', async () => {
    signIn({ apiKey: 'key', baseUrl: '' });
    const queryClient = renderApp();
    await screen.findByText('The page');
    act(() => expireSession());
    expect(queryClient.getQueryState(KEY)?.isInvalidated).toBe(false);
    act(() => signIn({ apiKey: 'key', baseUrl: '' }));
    expect(queryClient.getQueryState(KEY)?.isInvalidated).toBe(true);
  });

  it('forgets what it holds on sign-out', async () => {
    signIn({ apiKey: 'key', baseUrl: '' });
    const queryClient = renderApp();
    await screen.findByText('The page');
    act(() => signOut());
    expect(queryClient.getQueryData(KEY)).toBeUndefined();
  });

  it('forgets what it holds when another server is chosen', async () => {
    signIn({ apiKey: 'key', baseUrl: 'http://one.example' });
    const queryClient = renderApp();
    await screen.findByText('The page');
    act(() => signIn({ apiKey: 'key', baseUrl: 'http://two.example' }));
    expect(queryClient.getQueryData(KEY)).toBeUndefined();
  });
});
