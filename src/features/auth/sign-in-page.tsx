import { Anchor, Button, Center, Collapse, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { verifySession } from '../../api/auth';
import { describeError, isApiError } from '../../api/errors';
import { normaliseBaseUrl, type Session, signIn } from '../../api/session';

async function checkKey(session: Session): Promise<string | null> {
  try {
    await verifySession(session);
    return null;
  } catch (error) {
    return isApiError(error) && error.isUnauthorized ? 'That key was not accepted. Check it and try again.' : describeError(error);
  }
}

export function SignInPage({ reason }: { reason?: string }) {
  const [apiKey, setApiKey] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [otherServer, { toggle }] = useDisclosure(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const session = { apiKey: apiKey.trim(), baseUrl: normaliseBaseUrl(baseUrl) };
    if (!session.apiKey) {
      setError('Enter the session API key.');
      return;
    }
    setChecking(true);
    const problem = await checkKey(session);
    setChecking(false);
    if (problem) setError(problem);
    else signIn(session);
  };

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w={420} maw="100%">
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack>
            <div>
              <Title order={1} size="h3">
                Sign in to Agent Console
              </Title>
              <Text size="sm" c="dimmed" mt={4}>
                {reason ?? 'Use the sign-in link the server printed when it started, or paste its session API key.'}
              </Text>
            </div>
            <PasswordInput
              label="Session API key"
              value={apiKey}
              onChange={(e) => {
                setApiKey(e.currentTarget.value);
                setError(null);
              }}
              error={error}
              autoFocus
              autoComplete="current-password"
            />
            <Anchor component="button" type="button" size="sm" onClick={toggle} aria-expanded={otherServer}>
              {otherServer ? 'Use this console’s own server' : 'Connect to another server'}
            </Anchor>
            <Collapse expanded={otherServer}>
              <TextInput
                label="Server URL"
                description="The API server, when it is not the one serving this page"
                placeholder="http://127.0.0.1:3000"
                value={baseUrl}
                onChange={(e) => setBaseUrl(e.currentTarget.value)}
              />
            </Collapse>
            <Button type="submit" loading={checking} fullWidth>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}

