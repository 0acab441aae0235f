import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useStoredFlag } from './use-stored-flag';

describe('useStoredFlag', () => {
  it('starts from its default, and remembers a change for the next visit', () => {
    const first = renderHook(() => useStoredFlag('flag', true));
    expect(first.result.current[0]).toBe(true);
    act(() => first.result.current[1](false));
    expect(first.result.current[0]).toBe(false);
    expect(localStorage.getItem('flag')).toBe('false');
    expect(renderHook(() => useStoredFlag('flag', true)).result.current[0]).toBe(false);
  });

  it('ignores what it cannot read', () => {
    localStorage.setItem('flag', '{not json');
    expect(renderHook(() => useStoredFlag('flag', true)).result.current[0]).toBe(true);
  });
});
