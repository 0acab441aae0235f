import { ActionIcon, Button, Group, Input, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface RowEditorProps {
  label: string;
  description: string;
  /** What shows while there are no rows. */
  empty: string;
  /** One key per row, in order (react-hook-form's field ids). */
  keys: readonly string[];
  /** The inputs of row `index`. */
  renderRow: (index: number) => ReactNode;
  onAdd: () => void;
  /** The add button's name, in the caller's words: "Add argument". */
  addLabel: string;
  onRemove: (index: number) => void;
  /** A remove button's name for the row at `position` (from 1): "Remove argument 2". */
  removeLabel: (position: number) => string;
  /** Rows whose order matters get buttons to move them up and down, named for the row's position. */
  move?: { onMove: (from: number, to: number) => void; upLabel: (position: number) => string; downLabel: (position: number) => string };
  /** A problem with the rows as a whole. */
  error?: string;
  /** Below the add button. */
  children?: ReactNode;
}

/** A list edited as rows of inputs: add, remove and, where order matters, move. */
export function RowEditor(props: RowEditorProps) {
  const { label, description, empty, keys, renderRow, onAdd, addLabel, onRemove, removeLabel, move, error, children } = props;
  return (
    <Input.Wrapper label={label} description={description} error={error}>
      <Stack gap="xs" mt={6}>
        {keys.length === 0 && (
          <Text size="sm" c="dimmed">
            {empty}
          </Text>
        )}
        {keys.map((key, index) => (
          <Group key={key} gap={6} wrap="nowrap" align="flex-start">
            {renderRow(index)}
            {move && (
              <>
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label={move.upLabel(index + 1)}
                  disabled={index === 0}
                  onClick={() => move.onMove(index, index - 1)}
                >
                  <IconArrowUp size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label={move.downLabel(index + 1)}
                  disabled={index === keys.length - 1}
                  onClick={() => move.onMove(index, index + 1)}
                >
                  <IconArrowDown size={16} />
                </ActionIcon>
              </>
            )}
            <ActionIcon variant="default" size="lg" color="red" aria-label={removeLabel(index + 1)} onClick={() => onRemove(index)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group gap="xs">
          <Button variant="default" size="xs" leftSection={<IconPlus size={14} />} onClick={onAdd}>
            {addLabel}
          </Button>
        </Group>
        {children}
      </Stack>
    </Input.Wrapper>
  );
}
