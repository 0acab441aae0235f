import { MantineProvider } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderView } from '../testing/render';
import { Dialog } from './dialog';

function Harness() {
  const [opened, setOpened] = useState(false);
  return (
    <MantineProvider>
      <button onClick={() => setOpened(true)}>Open</button>
      <Dialog opened={opened} onClose={() => setOpened(false)} title="Delete everything?">
        <button onClick={() => setOpened(false)}>Cancel</button>
      </Dialog>
    </MantineProvider>
  );
}

describe('Dialog', () => {
  it('renders nothing until it opens, then the modal with its title and content', async () => {
    renderView(<Harness />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete everything?' });
    expect(dialog).toContainElement(screen.getByRole('button', { name: 'Cancel' }));
  });

  it('closes, and opens again', async () => {
    renderView(<Harness />);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    // It fades in: visible once the transition has run, however loaded the machine is.
    const dialog = await screen.findByRole('dialog', { name: 'Delete everything?' });
    await waitFor(() => expect(dialog).toBeVisible());
  });
});
