import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderView } from '../../testing/render';
import { ShortcutsDialog } from './shortcuts-dialog';

function setup(enabled: boolean) {
  const onEnabledChange = vi.fn();
  const onClose = vi.fn();
  return {
    ...renderView(<ShortcutsDialog opened onClose={onClose} enabled={enabled} onEnabledChange={onEnabledChange} />),
    onEnabledChange,
    onClose,
  };
}

describe('ShortcutsDialog', () => {
  it('lists every shortcut with its keys', () => {
    setup(true);
    const rows = within(screen.getByRole('table', { name: 'Shortcuts' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      "/Focus the page's search",
      'gthensGo to Settings',
      'gthencGo to Conversations',
      'gthenbGo to Sandboxes',
      '?Show the keyboard shortcuts',
    ]);
  });

  it('turns the shortcuts off and on', async () => {
    const { user, onEnabledChange } = setup(true);
    const toggle = screen.getByRole('switch', { name: /^Use these shortcuts/ });
    expect(toggle).toBeChecked();
    await user.click(toggle);
    expect(onEnabledChange).toHaveBeenCalledWith(false);
  });

  it('shows them off when they are', async () => {
    const { user, onEnabledChange } = setup(false);
    const toggle = screen.getByRole('switch', { name: /^Use these shortcuts/ });
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    expect(onEnabledChange).toHaveBeenCalledWith(true);
  });
});
