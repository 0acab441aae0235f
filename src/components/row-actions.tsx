import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Group, Table, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { DeferredTooltip } from './deferred-tooltip';

export interface RowActionItem {
  /** The verb; with the row's name it makes the button's accessible name ("Delete fetch"). */
  verb: string;
  /** The tooltip, when the verb alone says too little ("Test connection"). */
  title?: string;
  icon: ReactNode;
  danger?: boolean;
  onClick: () => void;
}

/**
 * The icon buttons at the end of a table row, each named for what it does to which row, with a
 * tooltip on hover and on keyboard focus (an icon alone says too little).
 */
export function RowActions({ name, actions }: { name: string; actions: RowActionItem[] }) {
  const { t } = useLingui();
  // A language may put the row's name first ("fetch を削除").
  // eslint-disable-next-line lingui/no-single-variables-to-translate
  const named = (verb: string) => t`${verb} ${name}`;
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      {actions.map(({ verb, title, icon, danger = false, onClick }) => (
        <DeferredTooltip key={verb} label={title ?? verb} events={{ hover: true, focus: true, touch: false }} openDelay={300} withinPortal>
          <ActionIcon variant="subtle" color={danger ? 'red' : undefined} aria-label={named(verb)} onClick={onClick}>
            {icon}
          </ActionIcon>
        </DeferredTooltip>
      ))}
    </Group>
  );
}

/** The header cell above a column of row actions: unlabelled on screen, named for screen readers. */
export function RowActionsHeader() {
  return (
    <Table.Th>
      <VisuallyHidden>
        <Trans>Actions</Trans>
      </VisuallyHidden>
    </Table.Th>
  );
}
