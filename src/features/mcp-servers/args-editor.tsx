import { Trans, useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();

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
      label={t`Arguments`}
      description={t`One per row, in order`}
      empty={t`No arguments.`}
      keys={fields.map((field) => field.id)}
      renderRow={(index) => {
        const position = index + 1;
        return (
          <TextInput
            style={{ flex: 1 }}
            aria-label={t`Argument ${position}`}
            {...register(`args.${index}.value`)}
            error={errors?.[index]?.value?.message ?? errors?.[index]?.message}
          />
        );
      }}
      onAdd={() => append({ value: '' })}
      addLabel={t`Add argument`}
      onRemove={remove}
      removeLabel={(position) => t`Remove argument ${position}`}
      move={{
        onMove: move,
        upLabel: (position) => t`Move argument ${position} up`,
        downLabel: (position) => t`Move argument ${position} down`,
      }}
      error={errors?.root?.message}
    >
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          size="xs"
          label={t`Paste as one line`}
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
          <Trans>Split into arguments</Trans>
        </Button>
      </Group>
    </RowEditor>
  );
}
