import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderView } from '../testing/render';
import { SelectionToolbar } from './selection-toolbar';

describe('SelectionToolbar', () => {
  it('shows the count, each action with how many rows it applies to, and clears the selection', async () => {
    const pause = vi.fn();
    const onClear = vi.fn();
    const { user } = renderView(
      <SelectionToolbar
        label="Selected things"
        count={2}
        actions={[
          { label: 'Pause', count: 2, onClick: pause },
          { label: 'Resume', count: 0, onClick: vi.fn() },
          { label: 'Delete', count: 2, onClick: vi.fn(), destructive: true },
        ]}
        onClear={onClear}
      />,
    );
    const toolbar = screen.getByRole('toolbar', { name: 'Selected things' });
    expect(toolbar).toHaveTextContent('2 selected');
    expect(within(toolbar).getByRole('button', { name: 'Resume (0)' })).toBeDisabled();
    await user.click(within(toolbar).getByRole('button', { name: 'Pause (2)' }));
    expect(pause).toHaveBeenCalled();
    await user.click(within(toolbar).getByRole('button', { name: 'Clear selection' }));
    expect(onClear).toHaveBeenCalled();
  });

  it('is not there while nothing is selected', () => {
    renderView(<SelectionToolbar label="Selected things" count={0} actions={[]} onClear={vi.fn()} />);
    expect(screen.queryByRole('toolbar')).not.toBeInTheDocument();
  });
});
