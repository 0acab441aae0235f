import { Drawer, type DrawerProps } from '@mantine/core';
import { useReturnFocus } from './use-return-focus';

/** A drawer from the right, for a row's details or its editor; the focus returns to what opened it. */
export function SidePanel(props: DrawerProps) {
  useReturnFocus(props.opened);
  return <Drawer position="right" {...props} />;
}
