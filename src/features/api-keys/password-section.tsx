import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { FormProvider, useController, useForm } from 'react-hook-form';
import { changePassword } from '../../api/team';
import { contractResolver } from '../../components/form/contract-resolver';
import { differentTwice } from '../../components/form/password-fields';
import { SaveProblemAlert } from '../../components/form/save-problem-alert';
import { useServerSubmit } from '../../components/form/use-server-submit';
import { SectionHeader } from '../../components/section-header';
import { MIN_PASSWORD_LENGTH, type PasswordChange, passwordChangeSchema } from '../../contract/team';

interface PasswordFormValues {
  current_password: string;
  new_password: string;
  repeated: string;
}

const EMPTY: PasswordFormValues = { current_password: '', new_password: '', repeated: '' };
const FIELDS = new Set<string>(['current_password', 'new_password']);

const toChange = ({ current_password, new_password }: PasswordFormValues): PasswordChange => ({ current_password, new_password });

const PLACEMENT = { isField: (path: string) => FIELDS.has(path) };

const resolver = contractResolver(toChange, passwordChangeSchema, {
  ...PLACEMENT,
  formProblems: (values) => ({ repeated: differentTwice(values.new_password, values.repeated) }),
});

function PasswordField({ name, label, autoComplete }: { name: keyof PasswordFormValues; label: string; autoComplete: string }) {
  const { t } = useLingui();
  const { field, fieldState } = useController<PasswordFormValues>({ name });
  const min = MIN_PASSWORD_LENGTH;
  return (
    <PasswordInput
      {...field}
      label={label}
      error={fieldState.error?.message}
      autoComplete={autoComplete}
      description={name === 'new_password' ? t`${plural(min, { one: 'At least # character', other: 'At least # characters' })}` : undefined}
    />
  );
}

/** One's own password: the current one, and the new one twice. Every other session ends; this one goes on. */
export function PasswordSection() {
  const { t } = useLingui();
  const form = useForm<PasswordFormValues>({ defaultValues: EMPTY, resolver });
  const change = useMutation({ mutationFn: (body: PasswordChange) => changePassword(body) });
  const { submit, problem, dismissProblem } = useServerSubmit(form, {
    save: async (values) => {
      await change.mutateAsync(toChange(values));
      form.reset(EMPTY);
      notifications.show({ color: 'teal', message: t`Password changed` });
    },
    serverErrors: { ...PLACEMENT, verdict: t`The password was not changed` },
  });
  return (
    <Stack mt="xl">
      <SectionHeader title={t`Password`} description={t`Changing it signs you out everywhere else.`} />
      <FormProvider {...form}>
        <form aria-label={t`Change password`} noValidate onSubmit={submit}>
          <Stack maw={420}>
            <PasswordField name="current_password" label={t`Current password`} autoComplete="current-password" />
            <PasswordField name="new_password" label={t`New password`} autoComplete="new-password" />
            <PasswordField name="repeated" label={t`New password again`} autoComplete="new-password" />
            {problem && <SaveProblemAlert problem={problem} onClose={dismissProblem} />}
            <Group>
              <Button type="submit" loading={form.formState.isSubmitting}>
                <Trans>Change password</Trans>
              </Button>
            </Group>
          </Stack>
        </form>
      </FormProvider>
    </Stack>
  );
}
