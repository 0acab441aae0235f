import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';

/** Renders a view as the app would (Mantine's theme and portals), without a server or a router. */
export function renderView(view: ReactElement) {
  const user = userEvent.setup();
  return { user, ...render(<MantineProvider>{view}</MantineProvider>) };
}
