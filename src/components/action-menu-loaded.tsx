import { Menu } from '@mantine/core';
import type { ActionMenuProps } from './action-menu';

/** Loaded on demand by ./action-menu: Mantine's Menu and the positioning library it brings. */
export default function ActionMenuLoaded({ target, items, opened }: ActionMenuProps & { opened: boolean }) {
  return (
    <Menu position="bottom-end" withinPortal defaultOpened={opened}>
      <Menu.Target>{target}</Menu.Target>
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
