import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useListFilters } from './use-list-filters';

const inRouter =
  (url: string) =>
  ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[url]}>{children}</MemoryRouter>;

describe('useListFilters', () => {
  it('writes the filters into the URL, leaving out the defaults, and keeps the ones a change does not name', () => {
    const { result } = renderHook(() => ({ filters: useListFilters(), search: useLocation().search }), {
      wrapper: inRouter('/conversations?owner=u2'),
    });
    act(() => result.current.filters[1]({ title: 'fix', sort: 'TITLE', archived: true }));
    expect(result.current.search).toBe('?owner=u2&q=fix&sort=TITLE&archived=true');
    expect(result.current.filters[0]).toMatchObject({ title: 'fix', sort: 'TITLE', archived: true, owner: 'u2' });
    act(() => result.current.filters[1]({ sort: 'CREATED_AT_DESC', archived: false, owner: '' }));
    expect(result.current.search).toBe('?q=fix');
  });
});
