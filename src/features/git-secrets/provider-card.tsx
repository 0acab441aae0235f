import { Badge, Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconBrandAzure, IconBrandBitbucket, IconBrandGithub, IconBrandGitlab, IconLock } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { TextField } from '../../components/form/fields';
import { KEEP_SECRET, type SecretDraft, SecretField, secretUpdate } from '../../components/form/secret-field';
import { applyServerErrors, type SaveProblem } from '../../components/form/apply-server-errors';
import { SaveProblemAlert } from '../../components/form/save-problem-alert';
import { type Provider, PROVIDER_NAMES, providerTokenSchema, PUBLIC_HOSTS } from '../../contract/secrets';
import { issueMessage } from '../../contract/validation-error';
import { saveProviderMutation } from '../../queries/git-providers';

const ICONS: Record<Provider, typeof IconBrandGithub> = {
  github: IconBrandGithub,
  gitlab: IconBrandGitlab,
  bitbucket: IconBrandBitbucket,
  azure_devops: IconBrandAzure,
  enterprise_sso: IconLock,
};

interface ProviderFormValues {
  token: SecretDraft;
  host: string;
}

const toEntry = (values: ProviderFormValues) => ({ token: secretUpdate(values.token), host: values.host.trim() || null });

/** The contract's checks for one provider entry, plus: connecting needs a token. */
function resolverFor(connected: boolean) {
  const schema = z.pipe(
    z.transform((values: ProviderFormValues): z.input<typeof providerTokenSchema> => toEntry(values)),
    providerTokenSchema.check(
      z.refine((entry) => connected || Boolean(entry.token), { message: 'Paste a token to connect', path: ['token'] }),
    ),
  );
  return zodResolver(schema, { error: issueMessage }, { raw: true });
}

/**
 * One git provider: its token (write-only; empty keeps the stored one) and host, saved on its
 * own, and a disconnect that removes just this provider.
 */
export function ProviderCard({ provider, connectedHost }: { provider: Provider; connectedHost: string | null | undefined }) {
  const connected = connectedHost !== undefined;
  const name = PROVIDER_NAMES[provider];
  const Icon = ICONS[provider];
  const publicHost = PUBLIC_HOSTS[provider];
  const values = { token: KEEP_SECRET, host: connectedHost ?? '' };
  const form = useForm<ProviderFormValues>({
    defaultValues: values,
    values,
    resetOptions: { keepDirtyValues: true },
    resolver: resolverFor(connected),
    mode: 'onSubmit',
  });
  const queryClient = useQueryClient();
  const save = useMutation(saveProviderMutation(queryClient));
  // Its own mutation, so a failed save never shows up as a disconnect error.
  const disconnectProvider = useMutation(saveProviderMutation(queryClient));
  const [problem, setProblem] = useState<SaveProblem | null>(null);
  const [confirming, setConfirming] = useState(false);

  const submit = form.handleSubmit(async (current) => {
    setProblem(null);
    const { token, host } = toEntry(current);
    try {
      await save.mutateAsync({ provider, token, host });
      form.reset({ token: KEEP_SECRET, host: host ?? '' }, { keepDirtyValues: false });
      notifications.show({
        color: 'teal',
        title: `${name} saved`,
        message: host ? `Host ${host}` : `Using ${publicHost ?? 'the default host'}`,
      });
    } catch (error) {
      setProblem(
        applyServerErrors(form, error, {
          isField: (path) => path === 'token' || path === 'host',
          locPrefix: ['body', 'provider_tokens', provider],
          // OpenHands refuses a token the provider rejects with 401 {"error": "Invalid token…"}.
          statusField: { 401: 'token' },
          verdict: 'Not saved',
        }),
      );
    }
  });

  const disconnect = () =>
    disconnectProvider.mutate(
      { provider, remove: true },
      {
        onSuccess: () => {
          setConfirming(false);
          notifications.show({ color: 'teal', title: `${name} disconnected`, message: 'Its token was removed from the server.' });
        },
      },
    );

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={name}>
      <FormProvider {...form}>
        <form onSubmit={(event) => void submit(event)} noValidate aria-label={`${name} token`}>
          <Stack gap="sm">
            <Group justify="space-between" wrap="nowrap">
              <Group gap="sm" wrap="nowrap">
                <ThemeIcon variant="light" size="lg" radius="md" color="gray">
                  <Icon size={20} />
                </ThemeIcon>
                <Title order={3} size="h5">
                  {name}
                </Title>
              </Group>
              <Badge variant="light" color={connected ? 'teal' : 'gray'} data-testid={`${provider}-status`}>
                {connected ? `Connected${connectedHost ? ` · ${connectedHost}` : ''}` : 'Not connected'}
              </Badge>
            </Group>
            {problem && <SaveProblemAlert problem={problem} />}
            <SecretField<ProviderFormValues>
              name="token"
              label={`${name} token`}
              isSet={connected}
              clearable={false}
              placeholder="Paste a token to connect"
            />
            <TextField<ProviderFormValues>
              name="host"
              label={`${name} host`}
              description={
                publicHost ? `Empty for ${publicHost}; a domain or URL for a self-hosted server` : 'The domain or URL of your server'
              }
              placeholder={publicHost ?? 'sso.example.com'}
            />
            <Group justify="space-between">
              {connected ? (
                <Button
                  variant="subtle"
                  color="red"
                  onClick={() => {
                    disconnectProvider.reset();
                    setConfirming(true);
                  }}
                >
                  Disconnect
                </Button>
              ) : (
                <Text size="xs" c="dimmed">
                  Tokens are stored encrypted and never shown again.
                </Text>
              )}
              <Button type="submit" disabled={!form.formState.isDirty} loading={form.formState.isSubmitting}>
                {connected ? 'Save' : 'Connect'}
              </Button>
            </Group>
          </Stack>
        </form>
      </FormProvider>
      {confirming && (
        <ConfirmDialog
          title={`Disconnect ${name}?`}
          confirmLabel="Disconnect"
          onConfirm={disconnect}
          onClose={() => setConfirming(false)}
          pending={disconnectProvider.isPending}
          error={disconnectProvider.error}
        >
          The {name} token is removed from the server. The agent can no longer use {name}
          {connectedHost ? ` at ${connectedHost}` : ''} until you connect it again.
        </ConfirmDialog>
      )}
    </Paper>
  );
}
