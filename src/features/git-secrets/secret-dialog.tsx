import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, PasswordInput, Stack, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormProvider, useController, useForm } from 'react-hook-form';
import type * as z from 'zod/mini';
import { Dialog } from '../../components/dialog';
import { contractResolver } from '../../components/form/contract-resolver';
import { TextField } from '../../components/form/fields';
import { SaveProblemAlert } from '../../components/form/save-problem-alert';
import { useServerSubmit } from '../../components/form/use-server-submit';
import { useConfirmDiscard } from '../../components/use-confirm-discard';
import { createSecretSchema, updateSecretSchema } from '../../contract/secrets';
import { createSecretMutation, updateSecretMutation } from '../../queries/secrets';
import { secretValueUpdateQuery } from '../../queries/server-capabilities';

interface SecretFormValues {
  name: string;
  value: string;
  description: string;
}

type Existing = { name: string; description: string | null };

const FIELDS = new Set(['name', 'value', 'description']);
const PLACEMENT = { isField: (path: string) => FIELDS.has(path) };

const createBody = (values: SecretFormValues) => ({
  name: values.name.trim(),
  value: values.value,
  description: values.description.trim() || null,
});

/**
 * An edit sends name and description always (OpenHands requires the name and would clear a
 * description left out) and a value only when one was typed (empty keeps the stored value).
 */
function updateBody(values: SecretFormValues) {
  const { name, description } = createBody(values);
  return { name, description, ...(values.value !== '' ? { value: values.value } : {}) };
}

/** Checks with the contract; an unchanged name is not checked (a secret made elsewhere may have any name). */
function resolverFor(existing: Existing | null) {
  if (!existing) return contractResolver(createBody, createSecretSchema, PLACEMENT);
  const toUpdate = (values: SecretFormValues): z.input<typeof updateSecretSchema> => {
    const { name, ...rest } = updateBody(values);
    return name === existing.name ? rest : { name, ...rest };
  };
  return contractResolver(toUpdate, updateSecretSchema, PLACEMENT);
}

function valueHelp(existing: Existing | null, inPlace: boolean): MessageDescriptor {
  if (!existing) return msg`Stored encrypted; never shown again`;
  if (inPlace) return msg`Leave empty to keep the stored value.`;
  return msg`Leave empty to keep the stored value. This server cannot change values in place, so a new value replaces the secret (it is deleted and added again).`;
}

function ValueField({ existing, inPlace }: { existing: Existing | null; inPlace: boolean }) {
  const { t } = useLingui();
  const { field, fieldState } = useController<SecretFormValues, 'value'>({ name: 'value' });
  return (
    <PasswordInput
      {...field}
      label={existing ? t`New value` : t`Value`}
      description={t(valueHelp(existing, inPlace))}
      autoComplete="new-password"
      error={fieldState.error?.message}
    />
  );
}

function DescriptionField() {
  const { t } = useLingui();
  const { field, fieldState } = useController<SecretFormValues, 'description'>({ name: 'description' });
  return <Textarea {...field} label={t`Description`} autosize minRows={2} error={fieldState.error?.message} />;
}

/** Create a secret, or rename, describe and re-value one. A failed save keeps what was typed. */
export function SecretDialog({ existing, onClose }: { existing: Existing | null; onClose: () => void }) {
  const { t } = useLingui();
  const form = useForm<SecretFormValues>({
    defaultValues: { name: existing?.name ?? '', value: '', description: existing?.description ?? '' },
    resolver: resolverFor(existing),
    mode: 'onSubmit',
  });
  const queryClient = useQueryClient();
  const create = useMutation(createSecretMutation(queryClient));
  const update = useMutation(updateSecretMutation(queryClient));
  // Only an edit can change a value; until the server says otherwise, it changes in place.
  const inPlace = useQuery({ ...secretValueUpdateQuery(), enabled: existing !== null }).data ?? true;
  const { submit, problem } = useServerSubmit(form, {
    save: async (values) => {
      if (existing) await update.mutateAsync({ name: existing.name, changes: updateBody(values) });
      else await create.mutateAsync(createBody(values));
      notifications.show({ color: 'teal', title: existing ? t`Secret saved` : t`Secret added`, message: values.name.trim() });
      onClose();
    },
    serverErrors: {
      ...PLACEMENT,
      // A name that exists already: OpenHands and our server respond 400.
      statusField: { 400: 'name' },
      statusMessage: { 404: t`This secret was deleted meanwhile. Close this dialog to see the current list.` },
      verdict: t`Not saved`,
    },
  });

  const { requestClose, confirmation } = useConfirmDiscard(form.formState.isDirty, onClose);
  const editing = existing?.name;

  return (
    <Dialog opened onClose={requestClose} title={editing !== undefined ? t`Edit ${editing}` : t`Add secret`}>
      {confirmation}
      <FormProvider {...form}>
        <form onSubmit={submit} noValidate>
          <Stack>
            {problem && <SaveProblemAlert problem={problem} />}
            <TextField<SecretFormValues>
              name="name"
              label={t`Name`}
              description={t`Becomes an environment variable: letters, digits, _`}
              placeholder="API_TOKEN"
              data-autofocus
            />
            <ValueField existing={existing} inPlace={inPlace} />
            <DescriptionField />
            <Group justify="flex-end">
              <Button variant="default" onClick={requestClose}>
                <Trans>Cancel</Trans>
              </Button>
              <Button type="submit" loading={form.formState.isSubmitting} disabled={existing !== null && !form.formState.isDirty}>
                {existing ? <Trans>Save</Trans> : <Trans>Add secret</Trans>}
              </Button>
            </Group>
          </Stack>
        </form>
      </FormProvider>
    </Dialog>
  );
}
