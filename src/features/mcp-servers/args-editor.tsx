import { ActionIcon, Button, Group, Input, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { splitCommandLine } from '../../components/command-line';
import type { McpServerFormValues } from './mcp-model';

/** Arguments as ordered rows (add, remove, move), plus a line to paste a whole command line into. */
export function ArgsEditor() {
  const { control, register, formState } = useFormContext<McpServerFormValues>();
  const { fields, append, remove, move, replace } = useFieldArray({ control, name: 'args' });
  const [line, setLine] = useState('');
  const [lineError, setLineError] = useState<string | null>(null);
  const errors = formState.errors.args;

  const splitLine = () => {
    const result = splitCommandLine(line);
    if (!result.ok) {
      setLineError(result.error);
      return;
    }
    replace(result.args.map((value) => ({ value })));
    setLine('');
  };

  return (
    <Input.Wrapper label="Arguments" description="One per row, in order" error={errors?.root?.message}>
      <Stack gap="xs" mt={6}>
        {fields.length === 0 && (
          <Text size="sm" c="dimmed">
            No arguments.
          </Text>
        )}
        {fields.map((field, index) => (
          <Group key={field.id} gap={6} wrap="nowrap" align="flex-start">
            <TextInput
              style={{ flex: 1 }}
              aria-label={`Argument ${index + 1}`}
              {...register(`args.${index}.value`)}
              error={errors?.[index]?.value?.message ?? errors?.[index]?.message}
            />
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={`Move argument ${index + 1} up`}
              disabled={index === 0}
              onClick={() => move(index, index - 1)}
            >
              <IconArrowUp size={16} />
            </ActionIcon>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={`Move argument ${index + 1} down`}
              disabled={index === fields.length - 1}
              onClick={() => move(index, index + 1)}
            >
              <IconArrowDown size={16} />
            </ActionIcon>
            <ActionIcon variant="default" size="lg" color="red" aria-label={`Remove argument ${index + 1}`} onClick={() => remove(index)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group gap="xs">
          <Button variant="default" size="xs" leftSection={<IconPlus size={14} />} onClick={() => append({ value: '' })}>
            Add argument
          </Button>
        </Group>
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            size="xs"
            label="Paste as one line"
            placeholder={`-y @modelcontextprotocol/server-filesystem "/my docs"`}
            value={line}
            error={lineError}
            onChange={(event) => {
              setLine(event.currentTarget.value);
              setLineError(null);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                splitLine();
              }
            }}
          />
          <Button size="xs" variant="default" mt={22} onClick={splitLine} disabled={line.trim() === ''}>
            Split into arguments
          </Button>
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}
