import { Button, Group, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { splitCommandLine } from '../../components/command-line';
import type { McpServerFormValues } from './mcp-model';
import { RowEditor } from './row-editor';

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
    <RowEditor
      label="Arguments"
      description="One per row, in order"
      noun="argument"
      empty="No arguments."
      keys={fields.map((field) => field.id)}
      renderRow={(index) => (
        <TextInput
          style={{ flex: 1 }}
          aria-label={`Argument ${index + 1}`}
          {...register(`args.${index}.value`)}
          error={errors?.[index]?.value?.message ?? errors?.[index]?.message}
        />
      )}
      onAdd={() => append({ value: '' })}
      onRemove={remove}
      onMove={move}
      error={errors?.root?.message}
    >
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
    </RowEditor>
  );
}
