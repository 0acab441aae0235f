import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { appConversation } from '../../../testing/conversations';
import { renderView } from '../../../testing/render';
import { BulkConfirmDialog } from './bulk-confirm-dialog';

describe('BulkConfirmDialog', () => {
  it('names the first ten conversations, counts the rest, and runs the action only when confirmed', async () => {
    const onConfirm = vi.fn();
    const selection = Array.from({ length: 12 }, (_, n) => appConversation({ id: `c${n}`, title: n === 0 ? null : `Task ${n}` }));
    const { user } = renderView(
      <BulkConfirmDialog action="delete" selection={selection} pending={false} onClose={vi.fn()} onConfirm={onConfirm} />,
    );
    expect(await screen.findByRole('dialog', { name: 'Delete 12 conversations?' })).toHaveTextContent(/This cannot be undone/);
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'c0',
      ...Array.from({ length: 9 }, (_, n) => `Task ${n + 1}`),
      'and 2 more',
    ]);
    await user.click(screen.getByRole('button', { name: 'Delete 12' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
