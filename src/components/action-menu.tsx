import { Button, Group } from '@mantine/core';
import { cloneElement, type ComponentType, lazy, type ReactElement, type ReactNode, Suspense, useState } from 'react';

export interface ActionMenuItem {
  label: string;
  icon: ReactNode;
  danger?: boolean;
  disabled?: boolean;
  onClick: () => void;
}

export interface ActionMenuProps {
  /** The button that opens the menu; it shows as it is while the menu's code arrives. */
  target: ReactElement<{ onClick?: () => void }>;
  items: ActionMenuItem[];
}

/** Should the menu's code fail to load (the server was updated), its items stand in a row. */
function ItemsInARow({ items }: ActionMenuProps) {
  return (
    <Group gap={4} wrap="nowrap">
      {items.map(({ label, icon, danger, disabled, onClick }) => (
        <Button
          key={label}
          size="compact-sm"
          variant="subtle"
          color={danger ? 'red' : undefined}
          leftSection={icon}
          disabled={disabled}
          onClick={onClick}
        >
          {label}
        </Button>
      ))}
    </Group>
  );
}

const LoadedMenu = lazy((): Promise<{ default: ComponentType<ActionMenuProps & { opened: boolean }> }> =>
  import('./action-menu-loaded').catch(() => ({ default: ItemsInARow })),
);

/**
 * Mantine's Menu, fetched as soon as the page has rendered: with its popover, focus trap and
 * positioning library it was about a tenth of the page's first download. Until it arrives the
 * target shows alone; a click on it then opens the menu once it has.
 */
export function ActionMenu(props: ActionMenuProps) {
  const [clickedEarly, setClickedEarly] = useState(false);
  return (
    <Suspense fallback={cloneElement(props.target, { onClick: () => setClickedEarly(true) })}>
      <LoadedMenu {...props} opened={clickedEarly} />
    </Suspense>
  );
}
