import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useDismissedStarts } from './use-dismissed-starts';

afterEach(() => localStorage.clear());

describe('useDismissedStarts', () => {
  it('remembers what a user dismissed in this browser, for that user only', () => {
    const first = renderHook(({ userId }) => useDismissedStarts(userId), { initialProps: { userId: 'ada' as string | null } });
    act(() => first.result.current[1]('task-1'));
    expect([...first.result.current[0]]).toEqual(['task-1']);
    first.rerender({ userId: 'bob' });
    expect([...first.result.current[0]]).toEqual([]);
    first.unmount();
    // A later visit (a new page, after a reload or a server restart) still has it.
    const later = renderHook(() => useDismissedStarts('ada'));
    expect(later.result.current[0].has('task-1')).toBe(true);
  });

  it('keeps the newest fifty of a user', () => {
    const { result } = renderHook(() => useDismissedStarts(null));
    act(() => {
      for (let n = 0; n < 60; n++) result.current[1](`task-${n}`);
    });
    expect(result.current[0].size).toBe(50);
    expect(result.current[0].has('task-59')).toBe(true);
    expect(result.current[0].has('task-9')).toBe(false);
  });
});
