import { Menu } from '@mantine/core';
import { cloneElement, useEffect, useRef, useState } from 'react';
import type { LoadedMenuProps } from './action-menu';

/**
 * Loaded on demand by ./action-menu: Mantine's Menu and the positioning library it brings.
 * It always mounts closed: Mantine returns the focus to the target on close only for a menu it
 * saw open, so one clicked before its code arrived is opened here, from the target, once mounted.
 */
export default function ActionMenuLoaded({ target, items, onArrival }: LoadedMenuProps) {
  // Only the value at arrival counts: the waiting target's blur on its removal must not change it.
  const [onMount] = useState(onArrival);
  const targetRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (onMount === 'nothing') return;
    // The focus the waiting target held, then the user's click replayed: Mantine records where the focus goes back to.
    targetRef.current?.focus();
    if (onMount === 'open') targetRef.current?.click();
  }, [onMount]);
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>{cloneElement(target, { ref: targetRef })}</Menu.Target>
      <Menu.Dropdown>
        {items.map(({ label, icon, danger, disabled, onClick }) => (
          <Menu.Item key={label} leftSection={icon} color={danger ? 'red' : undefined} disabled={disabled} onClick={onClick}>
            {label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
