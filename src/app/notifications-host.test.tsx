import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderView } from '../testing/render';
import { NotificationsHost } from './notifications-host';

// Mantine's store outlives a test file (isolate: false): what another file showed must not count here.
beforeEach(() => act(() => notifications.clean()));
afterEach(() => act(() => notifications.clean()));

describe('NotificationsHost', () => {
  it('mounts no container before the first notification', () => {
    renderView(
      <MantineProvider>
        <NotificationsHost />
      </MantineProvider>,
    );
    expect(document.querySelector('.mantine-Notifications-root')).toBeNull();
  });

  it('shows a notification made before its container had loaded', async () => {
    renderView(
      <MantineProvider>
        <NotificationsHost />
      </MantineProvider>,
    );
    act(() => {
      notifications.show({ title: 'Secret deleted', message: 'GITHUB_TOKEN' });
    });
    expect(await screen.findByText('Secret deleted')).toBeInTheDocument();
    expect(screen.getByText('GITHUB_TOKEN')).toBeInTheDocument();
    expect(document.querySelector('.mantine-Notifications-root')).not.toBeNull();
  });
});
