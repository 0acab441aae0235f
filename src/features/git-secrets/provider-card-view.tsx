import { Badge, Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBrandAzure, IconBrandBitbucket, IconBrandGithub, IconBrandGitlab, IconLock } from '@tabler/icons-react';
import type { FormEvent } from 'react';
import { FormProvider, type UseFormReturn } from 'react-hook-form';
import type { SaveProblem } from '../../components/form/apply-server-errors';
import { TextField } from '../../components/form/fields';
import { SaveProblemAlert } from '../../components/form/save-problem-alert';
import { SecretField } from '../../components/form/secret-field';
import { type Provider, PROVIDER_NAMES, PUBLIC_HOSTS } from '../../contract/secrets';
import type { ProviderFormValues } from './provider-form';

const ICONS: Record<Provider, typeof IconBrandGithub> = {
  github: IconBrandGithub,
  gitlab: IconBrandGitlab,
  bitbucket: IconBrandBitbucket,
  azure_devops: IconBrandAzure,
  enterprise_sso: IconLock,
};

export interface ProviderCardViewProps {
  provider: Provider;
  /** The stored host (`null` for the public service), `undefined` when not connected. */
  connectedHost: string | null | undefined;
  form: UseFormReturn<ProviderFormValues>;
  problem: SaveProblem | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onDisconnect: () => void;
}

/** One provider's card: whether it is connected, its token and host, connect and disconnect. */
export function ProviderCardView({ provider, connectedHost, form, problem, onSubmit, onDisconnect }: ProviderCardViewProps) {
  const connected = connectedHost !== undefined;
  const name = PROVIDER_NAMES[provider];
  const Icon = ICONS[provider];
  const publicHost = PUBLIC_HOSTS[provider];
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={name}>
      <FormProvider {...form}>
        <form onSubmit={onSubmit} noValidate aria-label={`${name} token`}>
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
                <Button variant="subtle" color="red" onClick={onDisconnect}>
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
    </Paper>
  );
}
