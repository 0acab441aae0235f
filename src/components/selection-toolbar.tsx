import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Paper, Text } from '@mantine/core';

export interface SelectionAction {
  label: string;
  /** How many of the selected rows it applies to; none disables it. */
  count: number;
  onClick: () => void;
  /** It removes what it applies to: shown in red. */
  destructive?: boolean;
}

/** What a list's selected rows can have done to them together, shown while any row is selected. */
export function SelectionToolbar({
  label,
  count,
  actions,
  onClear,
}: {
  /** The toolbar's accessible name, e.g. "Selected sandboxes". */
  label: string;
  count: number;
  actions: SelectionAction[];
  onClear: () => void;
}) {
  const { t } = useLingui();
  if (count === 0) return null;
  return (
    <Paper withBorder p="xs" mb="sm" radius="md" role="toolbar" aria-label={label}>
      <Group justify="space-between">
        <Text size="sm">{t`${count} selected`}</Text>
        <Group gap="xs">
          <Button size="xs" variant="subtle" onClick={onClear}>
            <Trans>Clear selection</Trans>
          </Button>
          {actions.map((action) => (
            <Button
              key={action.label}
              size="xs"
              variant={action.destructive ? 'light' : 'default'}
              color={action.destructive ? 'red' : undefined}
              disabled={action.count === 0}
              onClick={action.onClick}
            >
              {action.label} ({action.count})
            </Button>
          ))}
        </Group>
      </Group>
    </Paper>
  );
}
