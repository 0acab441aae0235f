import { Anchor, Button, Collapse, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { startCookieSession, verifySession } from '../../api/auth';
import { describeError, isApiError } from '../../api/errors';
import { normaliseBaseUrl, type Session, signIn } from '../../api/session';

async function problemWith(session: Session): Promise<string | null> {
  try {
    await verifySession(session);
    return null;
  } catch (error) {
    return isApiError(error) && error.isUnauthorized ? 'That key was not accepted. Check it and try again.' : describeError(error);
  }
}

/** Key (and, when asked for, server URL), checked against the server before it is stored. */
export function SignInForm({ baseUrl: initialBaseUrl = '' }: { baseUrl?: string }) {
  const [apiKey, setApiKey] = useState('');
  const [baseUrl, setBaseUrl] = useState(initialBaseUrl);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [otherServer, { toggle }] = useDisclosure(initialBaseUrl !== '');

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const session = { apiKey: apiKey.trim(), baseUrl: otherServer ? normaliseBaseUrl(baseUrl) : '' };
    if (!session.apiKey) {
      setError('Enter the session API key.');
      return;
    }
    setChecking(true);
    const problem = await problemWith(session);
    if (!problem) await startCookieSession(session);
    setChecking(false);
    if (problem) setError(problem);
    else signIn(session);
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Sign in">
      <Stack>
        <PasswordInput
          label="Session API key"
          value={apiKey}
          onChange={(e) => {
            setApiKey(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          data-autofocus
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
  );
}
