import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Code, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { CopyValue } from '../../components/copy-value';
import { Dialog } from '../../components/dialog';
import { contractResolver } from '../../components/form/contract-resolver';
import { SelectField, TextField } from '../../components/form/fields';
import { SaveProblemAlert } from '../../components/form/save-problem-alert';
import { useServerSubmit } from '../../components/form/use-server-submit';
import { useConfirmDiscard } from '../../components/use-confirm-discard';
import { apiKeyCreateSchema, type ApiKeyCreate, type CreatedApiKey } from '../../contract/team';
import { createApiKeyMutation } from '../../queries/team';

const DAY_MS = 24 * 60 * 60 * 1000;
const EXPIRY_DAYS: Record<string, number | null> = { never: null, '30': 30, '90': 90, '365': 365 };

interface KeyFormValues {
  name: string;
  /** Days from now, or `never`. */
  expiry: string;
}

const toBody = (values: KeyFormValues): ApiKeyCreate => {
  const days = EXPIRY_DAYS[values.expiry] ?? null;
  return { name: values.name.trim() || null, expires_at: days === null ? null : new Date(Date.now() + days * DAY_MS).toISOString() };
};

/** The body's fields as the form names them. */
const FIELD_OF: Record<string, keyof KeyFormValues> = { name: 'name', expires_at: 'expiry' };
const PLACEMENT = { fieldFor: (path: string) => FIELD_OF[path] };

const EXPIRY_CHOICES = [
  { value: '30', label: msg`In 30 days` },
  { value: '90', label: msg`In 90 days` },
  { value: '365', label: msg`In a year` },
  { value: 'never', label: msg`Never` },
];

/** Makes a key and shows it once, to copy. */
export function CreateKeyDialog({ onClose }: { onClose: () => void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const create = useMutation(createApiKeyMutation(queryClient));
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const form = useForm<KeyFormValues>({
    defaultValues: { name: '', expiry: '90' },
    resolver: contractResolver(toBody, apiKeyCreateSchema, PLACEMENT),
  });
  const { submit, problem } = useServerSubmit(form, {
    save: async (values) => setCreated(await create.mutateAsync(toBody(values))),
    serverErrors: { ...PLACEMENT, verdict: t`No key was made` },
  });
  const { requestClose, confirmation } = useConfirmDiscard(!created && form.formState.isDirty, onClose);
  return (
    <Dialog opened onClose={requestClose} title={created ? t`Your new API key` : t`Create an API key`}>
      {confirmation}
      {created ? (
        <Stack>
          <Text size="sm">
            <Trans>
              Copy it now: it is shown only this once. Send it as <Code>X-Session-API-Key</Code> or <Code>Authorization: Bearer</Code>.
            </Trans>
          </Text>
          <CopyValue value={created.key} label={t`the new API key`} maxWidth={360} />
          <Group justify="flex-end">
            <Button onClick={onClose}>
              <Trans>Done</Trans>
            </Button>
          </Group>
        </Stack>
      ) : (
        <FormProvider {...form}>
          <form noValidate onSubmit={submit}>
            <Stack>
              {problem && <SaveProblemAlert problem={problem} />}
              <TextField<KeyFormValues> name="name" label={t`Name`} description={t`What uses it, to tell keys apart`} data-autofocus />
              <SelectField<KeyFormValues>
                name="expiry"
                label={t`Expires`}
                options={EXPIRY_CHOICES.map(({ value, label }) => ({ value, label: t(label) }))}
                oneOf
              />
              <Group justify="flex-end">
                <Button variant="default" onClick={requestClose}>
                  <Trans>Cancel</Trans>
                </Button>
                <Button type="submit" loading={form.formState.isSubmitting}>
                  <Trans>Create key</Trans>
                </Button>
              </Group>
            </Stack>
          </form>
        </FormProvider>
      )}
    </Dialog>
  );
}
