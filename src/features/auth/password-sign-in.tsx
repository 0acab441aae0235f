import { t as translate } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, PasswordInput, Stack } from '@mantine/core';
import { FormProvider, useController, useForm } from 'react-hook-form';
import { signInWithPassword } from '../../api/auth';
import { signIn } from '../../api/session';
import { contractResolver } from '../../components/form/contract-resolver';
import { TextField } from '../../components/form/fields';
import { SaveProblemAlert } from '../../components/form/save-problem-alert';
import { useServerSubmit } from '../../components/form/use-server-submit';
import { passwordSignInSchema } from '../../contract/browser-session';

interface SignInFormValues {
  email: string;
  password: string;
}

const PLACEMENT = { isField: (path: string) => path === 'email' || path === 'password' };

const toBody = (values: SignInFormValues) => ({ email: values.email.trim(), password: values.password });

const resolver = contractResolver(toBody, passwordSignInSchema, {
  ...PLACEMENT,
  formProblems: (values) => ({
    email: values.email.trim() ? undefined : translate`Enter your email`,
    password: values.password ? undefined : translate`Enter your password`,
  }),
});

function PasswordField() {
  const { t } = useLingui();
  const { field, fieldState } = useController<SignInFormValues, 'password'>({ name: 'password' });
  return <PasswordInput {...field} label={t`Password`} error={fieldState.error?.message} autoComplete="current-password" />;
}

/** A team member's email and password, for this console's own server: it signs the browser in with its session cookie. */
export function PasswordSignIn() {
  const { t } = useLingui();
  const form = useForm<SignInFormValues>({ defaultValues: { email: '', password: '' }, resolver });
  const { submit, problem } = useServerSubmit(form, {
    save: async (values) => {
      const { email, password } = toBody(values);
      await signInWithPassword(email, password);
      signIn({ apiKey: '', baseUrl: '' });
    },
    // Refused (a wrong email or password, or too many tries): said above both, as it is about both.
    serverErrors: { ...PLACEMENT, verdict: t`Not signed in` },
  });
  return (
    <FormProvider {...form}>
      <form onSubmit={submit} noValidate aria-label={t`Sign in`}>
        <Stack>
          {problem && <SaveProblemAlert problem={problem} />}
          <TextField<SignInFormValues> name="email" label={t`Email`} type="email" autoComplete="username" data-autofocus autoFocus />
          <PasswordField />
          <Button type="submit" loading={form.formState.isSubmitting} fullWidth>
            <Trans>Sign in</Trans>
          </Button>
        </Stack>
      </form>
    </FormProvider>
  );
}
