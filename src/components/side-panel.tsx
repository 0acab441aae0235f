import type { DrawerProps } from '@mantine/core';
import { type ComponentType, lazy, Suspense, useState } from 'react';
import { NativeDialog } from './dialog';
import { useReturnFocus } from './use-return-focus';

/**
 * Mantine's Drawer, loaded the first time a panel opens: its scroll area, focus trap and scroll
 * lock bring a positioning library that was a large part of the list pages' first download.
 * Should its code fail to load, the browser's own dialog stands in.
 */
const Drawer = lazy((): Promise<{ default: ComponentType<DrawerProps> }> =>
  import('./overlays').then(
    ({ Drawer }) => ({ default: Drawer }),
    () => ({ default: NativeDialog }),
  ),
);

/** A drawer from the right, for a row's details or its editor; the focus returns to what opened it. */
export function SidePanel(props: DrawerProps) {
  useReturnFocus(props.opened);
  const [needed, setNeeded] = useState(props.opened);
  if (props.opened && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Drawer position="right" {...props} />
    </Suspense>
  );
}
