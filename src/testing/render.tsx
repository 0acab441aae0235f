import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { LocaleProvider } from '../i18n/locale-provider';

/** What the app puts around every view: its strings (in English here) and Mantine's theme. */
function AppContext({ children }: { children: ReactNode }) {
  return (
    <LocaleProvider>
      <MantineProvider env="test">{children}</MantineProvider>
    </LocaleProvider>
  );
}

/**
 * Renders a view as the app would, without a server or a router; `rerender` keeps the same
 * context. Mantine's test environment turns transitions off, so a menu or dialog is there at
 * once, however busy the machine is, instead of a moment later.
 */
export function renderView(view: ReactElement) {
  const user = userEvent.setup();
  return { user, ...render(view, { wrapper: AppContext }) };
}

/** `renderView` inside a query client (e.g. `testQueryClient()`), for a part that reads or saves through the queries. */
export function renderWithQueries(view: ReactElement, client: QueryClient) {
  return renderView(<QueryClientProvider client={client}>{view}</QueryClientProvider>);
}

/**
 * Waits until the icon buttons' tooltips have arrived (`DeferredTooltip`): each button is drawn
 * anew inside its tooltip then, and a click under way as that happens is lost.
 */
export async function tooltipsArrived(): Promise<void> {
  await act(async () => {
    await import('../components/tooltip-loaded');
  });
}
