import { act, fireEvent, render } from '@testing-library/react';
import { useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { isNearBottom, useFollowBottom } from './use-follow-bottom';

describe('isNearBottom', () => {
  it('is true at the end and within a little of it, false further up', () => {
    expect(isNearBottom({ scrollTop: 600, scrollHeight: 1000, clientHeight: 400 })).toBe(true);
    expect(isNearBottom({ scrollTop: 580, scrollHeight: 1000, clientHeight: 400 })).toBe(true);
    expect(isNearBottom({ scrollTop: 500, scrollHeight: 1000, clientHeight: 400 })).toBe(false);
    expect(isNearBottom({ scrollTop: 0, scrollHeight: 300, clientHeight: 400 })).toBe(true);
  });
});

/** An area whose layout the test sets (jsdom has none). */
function Area({ size, onState }: { size: number; onState: (atBottom: boolean) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const { atBottom, onScroll } = useFollowBottom(ref, size);
  onState(atBottom);
  return <div data-testid="area" ref={ref} onScroll={onScroll} />;
}

function layout(element: HTMLElement, scrollHeight: number) {
  Object.defineProperty(element, 'scrollHeight', { configurable: true, value: scrollHeight });
  Object.defineProperty(element, 'clientHeight', { configurable: true, value: 400 });
}

describe('useFollowBottom', () => {
  it('follows new content while at the bottom, and stays put once scrolled up', () => {
    let atBottom = true;
    const onState = (value: boolean) => void (atBottom = value);
    const { getByTestId, rerender } = render(<Area size={1} onState={onState} />);
    const area = getByTestId('area');

    layout(area, 1000);
    rerender(<Area size={2} onState={onState} />);
    expect(area.scrollTop).toBe(1000);

    act(() => {
      area.scrollTop = 200;
      fireEvent.scroll(area);
    });
    expect(atBottom).toBe(false);
    layout(area, 1500);
    rerender(<Area size={3} onState={onState} />);
    expect(area.scrollTop).toBe(200);

    act(() => {
      area.scrollTop = 1100;
      fireEvent.scroll(area);
    });
    expect(atBottom).toBe(true);
    layout(area, 2000);
    rerender(<Area size={4} onState={onState} />);
    expect(area.scrollTop).toBe(2000);
  });
});
