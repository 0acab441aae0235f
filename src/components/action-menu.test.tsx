import { Button } from '@mantine/core';
import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderView } from '../testing/render';

/** The menu's code arrives when a test says so, or never (a chunk gone after a deploy). */
const arrival = { release: () => {}, fail: false };

async function renderMenu() {
  // A fresh module each time: the menu's code is fetched when action-menu.tsx is first imported.
  vi.resetModules();
  const released = new Promise<void>((resolve) => (arrival.release = resolve));
  vi.doMock('./action-menu-loaded', async (importOriginal) => {
    await released;
    if (arrival.fail) throw new Error('Failed to fetch dynamically imported module');
    return importOriginal();
  });
  const { ActionMenu } = await import('./action-menu');
  const onDelete = vi.fn();
  const view = renderView(
    <>
      <ActionMenu
        target={<Button aria-label="More actions for sb-1">…</Button>}
        items={[{ label: 'Delete', icon: null, onClick: onDelete }]}
      />
      <input aria-label="Elsewhere" />
    </>,
  );
  return { ...view, onDelete };
}

async function codeArrives() {
  await act(async () => {
    arrival.release();
    await import('./action-menu-loaded').catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
  // The menu it brings is rendered once the component's own import resolved too, which on a busy
  // worker can take more than the turn above.
  if (!arrival.fail) await waitFor(() => expect(document.querySelector('[aria-haspopup="menu"]')).not.toBeNull());
}

describe('ActionMenu', () => {
  beforeEach(() => {
    arrival.fail = false;
  });

  it('opens once its code arrives when the target was clicked before, and returns the focus on Escape', async () => {
    const { user } = await renderMenu();
    await user.tab();
    expect(screen.getByRole('button', { name: 'More actions for sb-1' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();

    await codeArrives();
    expect(await screen.findByRole('menuitem', { name: 'Delete' })).toBeInTheDocument();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: 'More actions for sb-1' })).toHaveFocus());
  });

  it('keeps the focus on its button, closed, when the code arrives while the button has the focus', async () => {
    const { user } = await renderMenu();
    await user.tab();

    await codeArrives();
    const target = screen.getByRole('button', { name: 'More actions for sb-1' });
    expect(target).toHaveAttribute('aria-haspopup', 'menu');
    expect(target).toHaveFocus();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('stays closed when the user pressed Escape after an early click', async () => {
    const { user } = await renderMenu();
    await user.tab();
    await user.keyboard('{Enter}{Escape}');
    expect(screen.getByRole('button', { name: 'More actions for sb-1' })).not.toHaveAttribute('aria-haspopup');

    await codeArrives();
    expect(screen.getByRole('button', { name: 'More actions for sb-1' })).toHaveAttribute('aria-haspopup', 'menu');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('stays closed, and leaves the focus where it is, when the user moved on after an early click', async () => {
    const { user } = await renderMenu();
    await user.click(screen.getByRole('button', { name: 'More actions for sb-1' }));
    await user.click(screen.getByRole('textbox', { name: 'Elsewhere' }));
    await user.keyboard('abc');

    await codeArrives();
    expect(screen.getByRole('button', { name: 'More actions for sb-1' })).toHaveAttribute('aria-haspopup', 'menu');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Elsewhere' })).toHaveFocus();
  });

  it('shows its items in a row, labelled as the target, when its code cannot be fetched', async () => {
    arrival.fail = true;
    const { user, onDelete } = await renderMenu();
    await codeArrives();

    const row = await screen.findByRole('group', { name: 'More actions for sb-1' });
    await user.click(within(row).getByRole('button', { name: 'Delete' }));
    expect(onDelete).toHaveBeenCalledOnce();
  });
});
