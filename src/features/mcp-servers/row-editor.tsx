import { ActionIcon, Button, Group, Input, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface RowEditorProps {
  label: string;
  description: string;
  /** One row's name, for its buttons: `argument` → "Add argument", "Remove argument 2". */
  noun: string;
  /** What shows while there are no rows. */
  empty: string;
  /** One key per row, in order (react-hook-form's field ids). */
  keys: readonly string[];
  /** The inputs of row `index`. */
  renderRow: (index: number) => ReactNode;
  onAdd: () => void;
  onRemove: (index: number) => void;
  /** Rows whose order matters get buttons to move them up and down. */
  onMove?: (from: number, to: number) => void;
  /** A problem with the rows as a whole. */
  error?: string;
  /** Below the add button. */
  children?: ReactNode;
}

/** A list edited as rows of inputs: add, remove and, where order matters, move. */
export function RowEditor({ label, description, noun, empty, keys, renderRow, onAdd, onRemove, onMove, error, children }: RowEditorProps) {
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
            {onMove && (
              <>
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label={`Move ${noun} ${index + 1} up`}
                  disabled={index === 0}
                  onClick={() => onMove(index, index - 1)}
                >
                  <IconArrowUp size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label={`Move ${noun} ${index + 1} down`}
                  disabled={index === keys.length - 1}
                  onClick={() => onMove(index, index + 1)}
                >
                  <IconArrowDown size={16} />
                </ActionIcon>
              </>
            )}
            <ActionIcon variant="default" size="lg" color="red" aria-label={`Remove ${noun} ${index + 1}`} onClick={() => onRemove(index)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group gap="xs">
          <Button variant="default" size="xs" leftSection={<IconPlus size={14} />} onClick={onAdd}>
            Add {noun}
          </Button>
        </Group>
        {children}
      </Stack>
    </Input.Wrapper>
  );
}
