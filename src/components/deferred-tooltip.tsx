import type { TooltipProps } from '@mantine/core';
import { type ComponentType, useEffect, useState } from 'react';

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
 * Mantine's Tooltip, fetched after the page has rendered: it brings a positioning library that
 * would otherwise be a large part of each list page's first download. Until it arrives (a moment
 * after the page shows) the control stands alone; it keeps its accessible name either way.
 */
export function DeferredTooltip(props: TooltipProps) {
  const [Tooltip, setTooltip] = useState<TooltipComponent | null>(() => loaded);
  useEffect(() => {
    if (Tooltip) return;
    let current = true;
    void loadTooltip().then((component) => current && component && setTooltip(() => component));
    return () => {
      current = false;
    };
  }, [Tooltip]);
  return Tooltip ? <Tooltip {...props} /> : props.children;
}
