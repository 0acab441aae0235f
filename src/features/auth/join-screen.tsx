import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { FormProvider, useController, useForm } from 'react-hook-form';
import { describeError } from '../../api/errors';
import { signIn } from '../../api/session';
import { acceptInvitation, invitationOfLink } from '../../api/team';
import { contractResolver } from '../../components/form/contract-resolver';
import { TextField } from '../../components/form/fields';
import { differentTwice } from '../../components/form/password-fields';
import { SaveProblemAlert } from '../../components/form/save-problem-alert';
import { useServerSubmit } from '../../components/form/use-server-submit';
import { type AcceptInvitationBody, acceptInvitationBodySchema, MIN_PASSWORD_LENGTH } from '../../contract/team';

/** Loaded with its strings (withCatalog). */
export { loadAuthCatalog as catalog } from './catalog';

/** The invitation token in the link's fragment (`/join#token=…`): a fragment never reaches a server or its logs. */
export function invitationToken(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token');
}

interface JoinFormValues {
  name: string;
  password: string;
  repeated: string;
}

const FIELDS = new Set<string>(['name', 'password']);
const PLACEMENT = { isField: (path: string) => FIELDS.has(path) };

function PasswordField({ name, label, description }: { name: 'password' | 'repeated'; label: string; description?: string }) {
  const { field, fieldState } = useController<JoinFormValues>({ name });
  return <PasswordInput {...field} label={label} description={description} error={fieldState.error?.message} autoComplete="new-password" />;
}

/**
 * Where an invitation link leads: the invited person chooses a password (and says their name),
 * and is signed in. The link works once, for 7 days.
 */
export function JoinPage({ onJoined }: { onJoined: () => void }) {
  const { t } = useLingui();
  const [token] = useState(() => invitationToken(window.location.hash));
  // Whom the link invites: the address they join as, said before they choose a password.
  const [email, setEmail] = useState<string | null>(null);
  const [linkProblem, setLinkProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    invitationOfLink(token, controller.signal).then(
      (invitation) => setEmail(invitation.email),
      (error: unknown) => {
        if (!controller.signal.aborted) setLinkProblem(describeError(error));
      },
    );
    return () => controller.abort();
  }, [token]);

  const toBody = (values: JoinFormValues): AcceptInvitationBody => ({
    token: token ?? '',
    password: values.password,
    name: values.name.trim() || undefined,
  });
  const form = useForm<JoinFormValues>({
    defaultValues: { name: '', password: '', repeated: '' },
    resolver: contractResolver(toBody, acceptInvitationBodySchema, {
      ...PLACEMENT,
      formProblems: (values) => ({ repeated: differentTwice(values.password, values.repeated) }),
    }),
  });
  const { submit, problem } = useServerSubmit(form, {
    save: async (values) => {
      await acceptInvitation(toBody(values));
      signIn({ apiKey: '', baseUrl: '' });
      onJoined();
    },
    serverErrors: { ...PLACEMENT, verdict: t`You have not joined yet` },
  });

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w={420} maw="100%">
        <Title order={1} size="h3">
          <Trans>Join the team</Trans>
        </Title>
        <Text size="sm" c="dimmed" mt={4} mb="md">
          <Trans>Choose the password you will sign in with, along with the email address you were invited at.</Trans>
        </Text>
        {!token ? (
          <Alert color="red" role="alert">
            <Trans>This link has no invitation in it. Open the whole link you were given, or ask for a new one.</Trans>
          </Alert>
        ) : (
          <FormProvider {...form}>
            <form aria-label={t`Join the team`} noValidate onSubmit={submit}>
              <Stack>
                {linkProblem && (
                  <Alert color="red" role="alert">
                    {linkProblem}
                  </Alert>
                )}
                {problem && <SaveProblemAlert problem={problem} />}
                {email && (
                  <TextInput
                    label={t`Email`}
                    description={t`You join as this address, and sign in with it.`}
                    value={email}
                    readOnly
                    autoComplete="username"
                  />
                )}
                <TextField<JoinFormValues> name="name" label={t`Your name`} autoComplete="name" autoFocus />
                <PasswordField name="password" label={t`Password`} description={t`At least ${MIN_PASSWORD_LENGTH} characters`} />
                <PasswordField name="repeated" label={t`Password again`} />
                <Button type="submit" loading={form.formState.isSubmitting} fullWidth>
                  <Trans>Set password and sign in</Trans>
                </Button>
              </Stack>
            </form>
          </FormProvider>
        )}
      </Paper>
    </Center>
  );
}
