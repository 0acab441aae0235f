import { PasswordInput, TextInput } from '@mantine/core';
import { useFieldArray, useFormContext } from 'react-hook-form';
import type { McpServerFormValues } from './mcp-model';
import { RowEditor } from './row-editor';

/** Environment variables as key/value rows; values are masked, each with its own reveal toggle. */
export function EnvEditor() {
  const { control, register, formState } = useFormContext<McpServerFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'env' });
  const errors = formState.errors.env;

  return (
    <RowEditor
      label="Environment variables"
      description="Passed to the server process"
      noun="variable"
      empty="No variables."
      keys={fields.map((field) => field.id)}
      renderRow={(index) => (
        <>
          <TextInput
            style={{ flex: 1 }}
            aria-label={`Variable ${index + 1} name`}
            placeholder="NAME"
            autoComplete="off"
            {...register(`env.${index}.key`)}
            error={errors?.[index]?.key?.message}
          />
          <PasswordInput
            style={{ flex: 1 }}
            aria-label={`Variable ${index + 1} value`}
            placeholder="value"
            autoComplete="new-password"
            {...register(`env.${index}.value`)}
            error={errors?.[index]?.value?.message}
          />
        </>
      )}
      onAdd={() => append({ key: '', value: '' })}
      onRemove={remove}
      error={errors?.root?.message}
    />
  );
}
