import { type RefObject, useCallback, useLayoutEffect, useRef, useState } from 'react';

/** How far from the end still counts as "at the bottom" (a row's margin, a rounding pixel). */
const SLACK_PX = 32;

export interface ScrollPosition {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}

export function isNearBottom({ scrollTop, scrollHeight, clientHeight }: ScrollPosition, slack = SLACK_PX): boolean {
  return scrollHeight - scrollTop - clientHeight <= slack;
}

/**
 * A scroll area that follows what is added at its end while it is scrolled to the bottom, and
 * stays where it is once the reader scrolls up. Call `onScroll` from the area's scroll events;
 * `contentSize` changes whenever the content may have grown.
 */
export function useFollowBottom(ref: RefObject<HTMLElement | null>, contentSize: number) {
  const following = useRef(true);
  const [atBottom, setAtBottom] = useState(true);

  const onScroll = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    following.current = isNearBottom(element);
    setAtBottom(following.current);
  }, [ref]);

  const scrollToBottom = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    following.current = true;
    setAtBottom(true);
    element.scrollTop = element.scrollHeight;
  }, [ref]);

  useLayoutEffect(() => {
    const element = ref.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, [ref, contentSize]);

  return { atBottom, onScroll, scrollToBottom };
}
