import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError, isApiError } from '../../api/errors';
import { changePassword } from '../../api/team';
import { ErrorAlert } from '../../components/error-alert';
import { SectionHeader } from '../../components/section-header';
import { MIN_PASSWORD_LENGTH, type PasswordChange } from '../../contract/team';

type Field = 'current_password' | 'new_password' | 'repeated';

/** One's own password: the current one, and the new one twice. Every other session ends; this one goes on. */
export function PasswordSection() {
  const [values, setValues] = useState<Record<Field, string>>({ current_password: '', new_password: '', repeated: '' });
  const [mismatch, setMismatch] = useState(false);
  const change = useMutation({ mutationFn: (body: PasswordChange) => changePassword(body) });
  const fieldError = (field: Field) =>
    (field === 'repeated' && mismatch ? 'The two new passwords differ' : undefined) ??
    (isApiError(change.error) ? change.error.validation.find((entry) => entry.loc.includes(field))?.msg : undefined);
  const general = change.error && !fieldError('current_password') && !fieldError('new_password') ? change.error : null;
  const input = (field: Field, label: string, autoComplete: string) => (
    <PasswordInput
      label={label}
      value={values[field]}
      onChange={(event) => {
        const value = event.currentTarget.value;
        setValues((current) => ({ ...current, [field]: value }));
        setMismatch(false);
        change.reset();
      }}
      error={fieldError(field)}
      autoComplete={autoComplete}
      description={field === 'new_password' ? `At least ${MIN_PASSWORD_LENGTH} characters` : undefined}
    />
  );
  return (
    <Stack mt="xl">
      <SectionHeader title="Password" description="Changing it signs you out everywhere else." />
      <form
        aria-label="Change password"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (values.new_password !== values.repeated) return setMismatch(true);
          change.mutate(
            { current_password: values.current_password, new_password: values.new_password },
            {
              onSuccess: () => {
                setValues({ current_password: '', new_password: '', repeated: '' });
                notifications.show({ color: 'teal', message: 'Password changed' });
              },
            },
          );
        }}
      >
        <Stack maw={420}>
          {input('current_password', 'Current password', 'current-password')}
          {input('new_password', 'New password', 'new-password')}
          {input('repeated', 'New password again', 'new-password')}
          {general && <ErrorAlert>{describeError(general)}</ErrorAlert>}
          <Group>
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
