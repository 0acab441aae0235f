import { ActionIcon, Button, Group, Input, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useFieldArray, useFormContext } from 'react-hook-form';
import type { McpServerFormValues } from './mcp-model';

/** Environment variables as key/value rows; values are masked, each with its own reveal toggle. */
export function EnvEditor() {
  const { control, register, formState } = useFormContext<McpServerFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'env' });
  const errors = formState.errors.env;

  return (
    <Input.Wrapper label="Environment variables" description="Passed to the server process" error={errors?.root?.message}>
      <Stack gap="xs" mt={6}>
        {fields.length === 0 && (
          <Text size="sm" c="dimmed">
            No variables.
          </Text>
        )}
        {fields.map((field, index) => (
          <Group key={field.id} gap={6} wrap="nowrap" align="flex-start">
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
            />
            <ActionIcon variant="default" size="lg" color="red" aria-label={`Remove variable ${index + 1}`} onClick={() => remove(index)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button variant="default" size="xs" leftSection={<IconPlus size={14} />} onClick={() => append({ key: '', value: '' })}>
            Add variable
          </Button>
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}
