import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';

/**
 * Renders a view as the app would (Mantine's theme), without a server or a router. Mantine's
 * test environment turns transitions off, so a menu or dialog is there at once, however busy the
 * machine is, instead of a moment later.
 */
export function renderView(view: ReactElement) {
  const user = userEvent.setup();
  return { user, ...render(<MantineProvider env="test">{view}</MantineProvider>) };
}
