import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTitleSearch } from './use-title-search';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('useTitleSearch', () => {
  it('shows what is typed at once, and searches for it, trimmed, once the typing pauses', () => {
    const search = vi.fn();
    const { result } = renderHook(() => useTitleSearch('', search));
    act(() => result.current.onInput('fix'));
    act(() => result.current.onInput('fix the bug '));
    expect(result.current.input).toBe('fix the bug ');
    expect(search).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(300));
    expect(search.mock.calls).toEqual([['fix the bug']]);
  });

  it('searches at once when the box is left', () => {
    const search = vi.fn();
    const { result } = renderHook(() => useTitleSearch('', search));
    act(() => result.current.onInput('fix'));
    act(() => result.current.onLeave());
    expect(search.mock.calls).toEqual([['fix']]);
  });

  it("shows the filters' title when it changes otherwise, but keeps what is typed when the title is its search", () => {
    const { result, rerender } = renderHook(({ title }) => useTitleSearch(title, () => undefined), { initialProps: { title: 'old' } });
    expect(result.current.input).toBe('old');
    rerender({ title: '' }); // Clear filters, or Back
    expect(result.current.input).toBe('');
    act(() => result.current.onInput('new '));
    rerender({ title: 'new' }); // the search reached the URL
    expect(result.current.input).toBe('new ');
  });
});
