import { i18n } from '@lingui/core';
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
          sandboxId="sb1"
          conversations={[
            { id: 'a1', title: 'Fix the parser' },
            { id: 'b2', title: 'Write docs' },
          ]}
        />
      </MemoryRouter>,
    );
    expect(screen.getByRole('group', { name: 'Conversations in this sandbox' })).toHaveTextContent('2 conversations');
    expect(screen.getByRole('link', { name: 'Fix the parser' })).toHaveAttribute('href', '/conversations/a1');
    expect(screen.getByRole('link', { name: 'Write docs' })).toHaveAttribute('href', '/conversations/b2');
    unmount();
    renderView(
      <MemoryRouter>
        <UsedBy sandboxId="sb1" conversations={[]} />
      </MemoryRouter>,
    );
    expect(screen.queryByRole('group')).toBeNull();
  });

  it('names the first few of many and links the list of them all, so the row stays a row', () => {
    const many = Array.from({ length: 20 }, (_, index) => ({ id: `c${index}`, title: `Task ${index}` }));
    renderView(
      <MemoryRouter>
        <UsedBy sandboxId="sb 1" conversations={many} />
      </MemoryRouter>,
    );
    const group = screen.getByRole('group', { name: 'Conversations in this sandbox' });
    expect(group).toHaveTextContent('20 conversations');
    expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual(['Task 0', 'Task 1', 'Task 2', 'and 17 more']);
    expect(screen.getByRole('link', { name: 'and 17 more' })).toHaveAttribute('href', '/conversations?sandbox=sb%201');
  });

  it('names four, rather than one and a link for the last', () => {
    renderView(
      <MemoryRouter>
        <UsedBy sandboxId="sb1" conversations={['A', 'B', 'C', 'D'].map((title) => ({ id: title, title }))} />
      </MemoryRouter>,
    );
    expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual(['A', 'B', 'C', 'D']);
  });

  it('names them in a sentence', () => {
    expect(namedConversations(i18n, [{ id: 'a', title: 'A' }])).toBe('conversation “A”');
    expect(
      namedConversations(i18n, [
        { id: 'a', title: 'A' },
        { id: 'b', title: 'B' },
        { id: 'c', title: 'C' },
      ]),
    ).toBe('conversations “A”, “B”, and “C”');
  });
});
