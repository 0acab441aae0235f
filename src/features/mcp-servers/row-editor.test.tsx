import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderView } from '../../testing/render';
import { RowEditor } from './row-editor';

function setup(keys: string[], ordered: boolean) {
  const callbacks = { onAdd: vi.fn(), onRemove: vi.fn(), onMove: vi.fn() };
  const move = {
    onMove: callbacks.onMove,
    upLabel: (n: number) => `Move argument ${n} up`,
    downLabel: (n: number) => `Move argument ${n} down`,
  };
  const view = renderView(
    <RowEditor
      label="Arguments"
      description="One per row"
      empty="No arguments."
      keys={keys}
      renderRow={(index) => <input aria-label={`Argument ${index + 1}`} />}
      onAdd={callbacks.onAdd}
      addLabel="Add argument"
      onRemove={callbacks.onRemove}
      removeLabel={(n) => `Remove argument ${n}`}
      move={ordered ? move : undefined}
      error="Too many"
    />,
  );
  return { ...view, ...callbacks };
}

describe('RowEditor', () => {
  it('says when there are no rows, and adds one', async () => {
    const { user, onAdd } = setup([], true);
    expect(screen.getByText('No arguments.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add argument' }));
    expect(onAdd).toHaveBeenCalled();
  });

  it('moves and removes rows by their position, and cannot move past either end', async () => {
    const { user, onMove, onRemove } = setup(['a', 'b'], true);
    expect(screen.getByRole('textbox', { name: 'Argument 2' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Move argument 1 up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move argument 2 down' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Move argument 2 up' }));
    expect(onMove).toHaveBeenCalledWith(1, 0);
    await user.click(screen.getByRole('button', { name: 'Remove argument 1' }));
    expect(onRemove).toHaveBeenCalledWith(0);
    expect(screen.getByText('Too many')).toBeInTheDocument();
  });

  it('has no move buttons where order does not matter', () => {
    setup(['a'], false);
    expect(screen.queryByRole('button', { name: /Move/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove argument 1' })).toBeInTheDocument();
  });
});
