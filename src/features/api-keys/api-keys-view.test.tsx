import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ApiKey } from '../../contract/team';
import { renderView, tooltipsArrived } from '../../testing/render';
import { ApiKeysView } from './api-keys-view';

const NOW = Date.parse('2026-11-29T12:00:00Z');
const key = (id: number, fields: Partial<ApiKey> = {}): ApiKey => ({
  id,
  name: `script ${id}`,
  prefix: 'sk-oh-abcd',
  created_at: '2026-11-01T12:00:00Z',
  last_used_at: null,
  expires_at: null,
  ...fields,
});

describe('ApiKeysView', () => {
  it('shows how each key begins, never more, and when it expires; Delete names the key', async () => {
    const onDelete = vi.fn();
    const { user } = renderView(
      <ApiKeysView
        keys={[key(1), key(2, { expires_at: '2026-11-28T12:00:00Z', last_used_at: '2026-11-28T11:00:00Z' })]}
        now={NOW}
        onCreate={vi.fn()}
        onDelete={onDelete}
      />,
    );
    await tooltipsArrived();
    const rows = screen.getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('sk-oh-abcd…')).toBeVisible();
    expect(within(rows[0]!).getAllByText('Never')).toHaveLength(2);
    expect(within(rows[1]!).queryByText('Never')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Delete script 2' }));
    expect(onDelete).toHaveBeenCalledWith(expect.objectContaining({ id: 2 }));
  });

  it('offers to create the first key', async () => {
    const onCreate = vi.fn();
    const { user } = renderView(<ApiKeysView keys={[]} now={NOW} onCreate={onCreate} onDelete={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Create an API key' }));
    expect(onCreate).toHaveBeenCalled();
  });
});
