import { useLingui } from '@lingui/react/macro';
import { PasswordInput, TextInput } from '@mantine/core';
import { useFieldArray, useFormContext } from 'react-hook-form';
import type { McpServerFormValues } from './mcp-model';
import { RowEditor } from './row-editor';

/** Environment variables as key/value rows; values are masked, each with its own reveal toggle. */
export function EnvEditor() {
  const { control, register, formState } = useFormContext<McpServerFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'env' });
  const errors = formState.errors.env;
  const { t } = useLingui();

  return (
    <RowEditor
      label={t`Environment variables`}
      description={t`Passed to the server process`}
      empty={t`No variables.`}
      keys={fields.map((field) => field.id)}
      renderRow={(index) => {
        const position = index + 1;
        return (
          <>
            <TextInput
              style={{ flex: 1 }}
              aria-label={t`Variable ${position} name`}
              placeholder="NAME"
              autoComplete="off"
              {...register(`env.${index}.key`)}
              error={errors?.[index]?.key?.message}
            />
            <PasswordInput
              style={{ flex: 1 }}
              aria-label={t`Variable ${position} value`}
              placeholder={t`value`}
              autoComplete="new-password"
              {...register(`env.${index}.value`)}
              error={errors?.[index]?.value?.message}
            />
          </>
        );
      }}
      onAdd={() => append({ key: '', value: '' })}
      addLabel={t`Add variable`}
      onRemove={remove}
      removeLabel={(position) => t`Remove variable ${position}`}
      error={errors?.root?.message}
    />
  );
}
