import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { describeError, isApiError } from '../../api/errors';
import { signIn } from '../../api/session';
import { acceptInvitation, invitationOfLink } from '../../api/team';
import { MIN_PASSWORD_LENGTH } from '../../contract/team';

/** The invitation token in the link's fragment (`/join#token=…`): a fragment never reaches a server or its logs. */
export function invitationToken(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token');
}

/**
 * Where an invitation link leads: the invited person chooses a password (and says their name),
 * and is signed in. The link works once, for 7 days.
 */
export function JoinPage({ onJoined }: { onJoined: () => void }) {
  const [token] = useState(() => invitationToken(window.location.hash));
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [problem, setProblem] = useState<{ field: 'password' | 'repeated' | 'link'; message: string } | null>(null);
  const [saving, setSaving] = useState(false);
  // Whom the link invites: the address they join as, said before they choose a password.
  const [email, setEmail] = useState<string | null>(null);
  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    invitationOfLink(token, controller.signal).then(
      (invitation) => setEmail(invitation.email),
      (error: unknown) => {
        if (!controller.signal.aborted) setProblem({ field: 'link', message: describeError(error) });
      },
    );
    return () => controller.abort();
  }, [token]);

  const submit = async () => {
    if (password.length < MIN_PASSWORD_LENGTH)
      return setProblem({ field: 'password', message: `Use at least ${MIN_PASSWORD_LENGTH} characters` });
    if (password !== repeated) return setProblem({ field: 'repeated', message: 'The two passwords differ' });
    setSaving(true);
    try {
      await acceptInvitation({ token: token ?? '', password, name: name.trim() || undefined });
      signIn({ apiKey: '', baseUrl: '' });
      onJoined();
    } catch (error) {
      const field = isApiError(error) && error.status === 422 ? 'password' : 'link';
      setProblem({ field, message: describeError(error) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w={420} maw="100%">
        <Title order={1} size="h3">
          Join the team
        </Title>
        <Text size="sm" c="dimmed" mt={4} mb="md">
          Choose the password you will sign in with, along with the email address you were invited at.
        </Text>
        {!token ? (
          <Alert color="red" role="alert">
            This link has no invitation in it. Open the whole link you were given, or ask for a new one.
          </Alert>
        ) : (
          <form
            aria-label="Join the team"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
          >
            <Stack>
              {problem?.field === 'link' && (
                <Alert color="red" role="alert">
                  {problem.message}
                </Alert>
              )}
              {email && (
                <TextInput
                  label="Email"
                  description="You join as this address, and sign in with it."
                  value={email}
                  readOnly
                  autoComplete="username"
                />
              )}
              <TextInput label="Your name" value={name} onChange={(e) => setName(e.currentTarget.value)} autoComplete="name" autoFocus />
              <PasswordInput
                label="Password"
                description={`At least ${MIN_PASSWORD_LENGTH} characters`}
                value={password}
                onChange={(e) => {
                  setPassword(e.currentTarget.value);
                  setProblem((shown) => (shown?.field === 'link' ? shown : null));
                }}
                error={problem?.field === 'password' ? problem.message : undefined}
                autoComplete="new-password"
              />
              <PasswordInput
                label="Password again"
                value={repeated}
                onChange={(e) => {
                  setRepeated(e.currentTarget.value);
                  setProblem((shown) => (shown?.field === 'link' ? shown : null));
                }}
                error={problem?.field === 'repeated' ? problem.message : undefined}
                autoComplete="new-password"
              />
              <Button type="submit" loading={saving} fullWidth>
                Set password and sign in
              </Button>
            </Stack>
          </form>
        )}
      </Paper>
    </Center>
  );
}
