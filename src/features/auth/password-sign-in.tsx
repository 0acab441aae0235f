import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { signInWithPassword } from '../../api/auth';
import { describeError, isApiError } from '../../api/errors';
import { signIn } from '../../api/session';

/** A team member's email and password, for this console's own server: it signs the browser in with its session cookie. */
export function PasswordSignIn() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  const submit = async () => {
    if (!email.trim() || !password) return setError('Enter your email and password.');
    setChecking(true);
    try {
      await signInWithPassword(email.trim(), password);
      signIn({ apiKey: '', baseUrl: '' });
    } catch (failure) {
      setError(isApiError(failure) && failure.isUnauthorized ? failure.message : describeError(failure));
    } finally {
      setChecking(false);
    }
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      noValidate
      aria-label="Sign in"
    >
      <Stack>
        <TextInput
          label="Email"
          type="email"
          value={email}
          onChange={(e) => {
            setEmail(e.currentTarget.value);
            setError(null);
          }}
          autoComplete="username"
          data-autofocus
          autoFocus
        />
        <PasswordInput
          label="Password"
          value={password}
          onChange={(e) => {
            setPassword(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          autoComplete="current-password"
        />
        <Button type="submit" loading={checking} fullWidth>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
