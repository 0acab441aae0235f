import { t as translate } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Collapse, Loader, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useDisclosure, useLocalStorage } from '@mantine/hooks';
import { lazy, Suspense, useEffect, useState } from 'react';
import { startCookieSession, verifySession } from '../../api/auth';
import { describeError, isApiError } from '../../api/errors';
import { normaliseBaseUrl, type Session, signIn } from '../../api/session';
import { readServerFeatures } from '../../api/server-capabilities';
import { forgetSignInError, signInErrorToShow } from './sign-in-link';

async function problemWith(session: Session): Promise<string | null> {
  try {
    await verifySession(session);
    return null;
  } catch (error) {
    return isApiError(error) && error.isUnauthorized ? translate`That key was not accepted. Check it and try again.` : describeError(error);
  }
}

type Method = 'password' | 'key';

/**
 * Its form library is the pages' and stays out of the first download: a key sign-in needs none.
 * Should its code not come (the server was updated), the form says so: a key still signs in here.
 */
const PasswordSignIn = lazy(() =>
  import('./password-sign-in').then(
    (module) => ({ default: module.PasswordSignIn }),
    () => ({ default: PasswordSignInElsewhere }),
  ),
);

function PasswordSignInElsewhere() {
  const { t } = useLingui();
  return (
    <Alert color="yellow" title={t`The password form could not be loaded`}>
      <Trans>The server may have been updated: reload the page, or sign in with a key.</Trans>
    </Alert>
  );
}

/**
 * Whether this console's own server offers sign-in with an identity provider. Read here, not
 * through the query cache: signing out clears the cache after this form has asked.
 */
function useIdentityProvider(): boolean {
  const [offered, setOffered] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    readServerFeatures(controller.signal).then(
      (features) => setOffered(features.identityProvider),
      () => undefined, // unknown: the button stays away
    );
    return () => controller.abort();
  }, []);
  return offered;
}

/**
 * A key (the session key, an API key; any server), checked against the server before it is
 * stored; or email and password (a team member, on this console's own server: the session
 * cookie); or the identity provider, when the server has one.
 */
export function SignInForm({ baseUrl: initialBaseUrl = '' }: { baseUrl?: string }) {
  const { t } = useLingui();
  const [method, setMethod] = useLocalStorage<Method>({
    key: 'agent-console:sign-in-method',
    defaultValue: 'key',
    getInitialValueInEffect: false,
  });
  const [apiKey, setApiKey] = useState('');
  const [baseUrl, setBaseUrl] = useState(initialBaseUrl);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [otherServer, { toggle }] = useDisclosure(initialBaseUrl !== '');
  const byPassword = method === 'password' && !otherServer;
  // Read while rendering, forgotten once on the page: a first render React drops and starts again
  // (an update came meanwhile, or something beside it suspended) reads the same.
  const [providerError] = useState(signInErrorToShow);
  useEffect(forgetSignInError, []);
  const identityProvider = useIdentityProvider() && !otherServer;

  const submitKey = async () => {
    const session = { apiKey: apiKey.trim(), baseUrl: otherServer ? normaliseBaseUrl(baseUrl) : '' };
    if (!session.apiKey) return setError(t`Enter the session API key.`);
    setChecking(true);
    const problem = await problemWith(session);
    if (!problem) await startCookieSession(session);
    setChecking(false);
    if (problem) setError(problem);
    else signIn(session);
  };

  const switchMethod = (
    <Anchor
      component="button"
      type="button"
      size="sm"
      onClick={() => {
        setMethod(byPassword ? 'key' : 'password');
        setError(null);
      }}
    >
      {byPassword ? t`Use a key instead` : t`Use an email and password instead`}
    </Anchor>
  );

  return (
    <Stack>
      {providerError && (
        <Alert color="red" role="alert" title={t`Not signed in`}>
          {providerError}
        </Alert>
      )}
      {identityProvider && (
        <Button component="a" href="/sign-in/oidc" variant="default" fullWidth>
          <Trans>Use your identity provider</Trans>
        </Button>
      )}
      {byPassword ? (
        <>
          <Suspense fallback={<Loader size="sm" aria-label={t`Loading the sign-in form`} />}>
            <PasswordSignIn />
          </Suspense>
          {switchMethod}
        </>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submitKey();
          }}
          noValidate
          aria-label={t`Sign in`}
        >
          <Stack>
            <PasswordInput
              label={t`Session API key`}
              description={t`The key the server printed, or an API key of yours`}
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
            {!otherServer && switchMethod}
            <Anchor component="button" type="button" size="sm" onClick={toggle} aria-expanded={otherServer}>
              {otherServer ? t`Use this console’s own server` : t`Connect to another server`}
            </Anchor>
            <Collapse expanded={otherServer}>
              <TextInput
                label={t`Server URL`}
                description={t`The API server, when it is not the one serving this page`}
                placeholder="http://127.0.0.1:3000"
                value={baseUrl}
                onChange={(e) => setBaseUrl(e.currentTarget.value)}
              />
            </Collapse>
            <Button type="submit" loading={checking} fullWidth>
              <Trans>Sign in</Trans>
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
