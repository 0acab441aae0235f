import { Button, Group } from '@mantine/core';
import {
  cloneElement,
  type ComponentType,
  type FocusEvent,
  type KeyboardEvent,
  lazy,
  type ReactElement,
  type ReactNode,
  type Ref,
  Suspense,
  useState,
} from 'react';

export interface ActionMenuItem {
  label: string;
  icon: ReactNode;
  danger?: boolean;
  disabled?: boolean;
  onClick: () => void;
}

export interface ActionMenuProps {
  /** The button that opens the menu; it shows as it is while the menu's code arrives. */
  target: ReactElement<{
    'aria-label'?: string;
    ref?: Ref<HTMLButtonElement>;
    onClick?: () => void;
    onFocus?: (event: FocusEvent) => void;
    onBlur?: (event: FocusEvent) => void;
    onKeyDown?: (event: KeyboardEvent) => void;
  }>;
  items: ActionMenuItem[];
}

/**
 * What the waiting target leaves to the loaded menu, which replaces it: the focus it holds, and
 * whether it was clicked (and has kept the focus since, no Escape): then the menu opens at once.
 */
export type OnArrival = 'nothing' | 'focus' | 'open';

export interface LoadedMenuProps extends ActionMenuProps {
  onArrival: OnArrival;
}

/** Should the menu's code fail to load (the server was updated), its items stand in a row. */
function ItemsInARow({ target, items }: ActionMenuProps) {
  return (
    <Group role="group" aria-label={target.props['aria-label']} gap={4} wrap="nowrap">
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

/**
 * Mantine's Menu, with its popover, focus trap and positioning library, was about a tenth of the
 * page's first download. Its code is fetched as soon as a page that shows a menu is loaded, in
 * parallel with that page's own rendering, rather than when the first menu renders.
 */
const menuCode: Promise<{ default: ComponentType<LoadedMenuProps> }> = import('./action-menu-loaded').then(
  (loaded) => ({ default: loaded.default }),
  () => ({ default: ItemsInARow }),
);
const LoadedMenu = lazy(() => menuCode);

/**
 * Until the menu's code arrives the target shows alone. A click on it then opens the menu when the
 * code arrives, unless the user has moved on meanwhile (Escape, or focus elsewhere): a menu that
 * pops open later would take the focus from whatever they are doing.
 */
export function ActionMenu(props: ActionMenuProps) {
  const [onArrival, setOnArrival] = useState<OnArrival>('nothing');
  const { onClick, onFocus, onBlur, onKeyDown } = props.target.props;
  const waitingTarget = cloneElement(props.target, {
    onClick: () => {
      onClick?.();
      setOnArrival('open');
    },
    onFocus: (event: FocusEvent) => {
      onFocus?.(event);
      setOnArrival('focus');
    },
    onBlur: (event: FocusEvent) => {
      onBlur?.(event);
      setOnArrival('nothing');
    },
    onKeyDown: (event: KeyboardEvent) => {
      onKeyDown?.(event);
      if (event.key === 'Escape') setOnArrival('focus');
    },
  });
  return (
    <Suspense fallback={waitingTarget}>
      <LoadedMenu {...props} onArrival={onArrival} />
    </Suspense>
  );
}
