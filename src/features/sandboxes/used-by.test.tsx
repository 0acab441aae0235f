import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderView } from '../../testing/render';
import { namedConversations, UsedBy } from './used-by';

describe('UsedBy', () => {
  it('links each conversation a sandbox serves, and shows nothing for none', () => {
    const { unmount } = renderView(
      <MemoryRouter>
        <UsedBy
          conversations={[
            { id: 'a1', title: 'Fix the parser' },
            { id: 'b2', title: 'Write docs' },
          ]}
        />
      </MemoryRouter>,
    );
    expect(screen.getByRole('group', { name: 'Conversations in this sandbox' })).toHaveTextContent('Conversations');
    expect(screen.getByRole('link', { name: 'Fix the parser' })).toHaveAttribute('href', '/conversations/a1');
    expect(screen.getByRole('link', { name: 'Write docs' })).toHaveAttribute('href', '/conversations/b2');
    unmount();
    renderView(
      <MemoryRouter>
        <UsedBy conversations={[]} />
      </MemoryRouter>,
    );
    expect(screen.queryByRole('group')).toBeNull();
  });

  it('names them in a sentence', () => {
    expect(namedConversations([{ id: 'a', title: 'A' }])).toBe('conversation “A”');
    expect(
      namedConversations([
        { id: 'a', title: 'A' },
        { id: 'b', title: 'B' },
        { id: 'c', title: 'C' },
      ]),
    ).toBe('conversations “A”, “B” and “C”');
  });
});
