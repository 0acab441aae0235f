import type { TooltipProps } from '@mantine/core';
import { type ComponentType, useEffect, useRef, useState } from 'react';

type TooltipComponent = ComponentType<TooltipProps>;

let loaded: TooltipComponent | null = null;
let loading: Promise<TooltipComponent | null> | null = null;

/** Fetches Mantine's Tooltip once; should it fail (the server was updated), the control simply has none. */
function loadTooltip(): Promise<TooltipComponent | null> {
  loading ??= import('./tooltip-loaded').then(
    (module) => (loaded = module.default),
    () => null,
  );
  return loading;
}

/**
 * Whether the control is in use: the pointer on it, the focus in it, or a dialog open that may
 * give the focus back to it when it closes (one it opened).
 */
const inUse = (slot: HTMLElement) =>
  slot.querySelector(':hover') !== null ||
  slot.contains(document.activeElement) ||
  document.querySelector('[aria-modal="true"], dialog[open]') !== null;

/**
 * Calls `ready` once `slot` is not in use (`inUse`): at once, or after the pointer or the focus
 * has moved on. Returns what stops the wait.
 */
export function whenNotInUse(slot: HTMLElement, ready: () => void): () => void {
  if (!inUse(slot)) {
    ready();
    return () => {};
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The element's :hover and the document's focus are settled only after the event's dispatch.
  const check = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (inUse(slot)) return;
      stop();
      ready();
    });
  };
  // Only while one control waits (the one in use as the tooltip arrived): the document's moves of pointer and focus.
  const stop = () => {
    clearTimeout(timer);
    document.removeEventListener('pointerover', check, true);
    document.removeEventListener('focusin', check, true);
    document.removeEventListener('focusout', check, true);
  };
  document.addEventListener('pointerover', check, true);
  document.addEventListener('focusin', check, true);
  document.addEventListener('focusout', check, true);
  return stop;
}

/**
 * Mantine's Tooltip, fetched after the page has rendered: it brings a positioning library that
 * would otherwise be a large part of each list page's first download. Until it arrives (a moment
 * after the page shows) the control stands alone; it keeps its accessible name either way.
 * Wrapping the control in the tooltip mounts it anew, so that happens only while the control is
 * not in use: a click under way, the keyboard's focus, or the focus a dialog gives back would be lost.
 */
export function DeferredTooltip(props: TooltipProps) {
  const [Tooltip, setTooltip] = useState<TooltipComponent | null>(() => loaded);
  const slot = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (Tooltip) return;
    let current = true;
    let stopWaiting = () => {};
    void loadTooltip().then((component) => {
      if (!current || !component || !slot.current) return;
      stopWaiting = whenNotInUse(slot.current, () => setTooltip(() => component));
    });
    return () => {
      current = false;
      stopWaiting();
    };
  }, [Tooltip]);
  return (
    <span ref={slot} style={{ display: 'contents' }}>
      {Tooltip ? <Tooltip {...props} /> : props.children}
    </span>
  );
}
