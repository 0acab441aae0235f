import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBrandAzure, IconBrandBitbucket, IconBrandGithub, IconBrandGitlab, IconLock } from '@tabler/icons-react';
import type { FormEvent } from 'react';
import { FormProvider, type UseFormReturn } from 'react-hook-form';
import { describeError } from '../../api/errors';
import { ErrorAlert } from '../../components/error-alert';
import type { SaveProblem } from '../../components/form/apply-server-errors';
import { TextField } from '../../components/form/fields';
import { SaveProblemAlert } from '../../components/form/save-problem-alert';
import { SecretField } from '../../components/form/secret-field';
import { RelativeTime } from '../../components/relative-time';
import { type Provider, PROVIDER_NAMES, PUBLIC_HOSTS, type TokenCheck, type TokenCheckOutcome } from '../../contract/secrets';
import type { ProviderFormValues } from './provider-form';

const ICONS: Record<Provider, typeof IconBrandGithub> = {
  github: IconBrandGithub,
  gitlab: IconBrandGitlab,
  bitbucket: IconBrandBitbucket,
  azure_devops: IconBrandAzure,
  enterprise_sso: IconLock,
};

const VERDICT_COLORS: Record<TokenCheckOutcome, string> = {
  accepted: 'teal',
  refused: 'red',
  unreachable: 'orange',
  uncheckable: 'gray',
};

export interface ProviderCardViewProps {
  provider: Provider;
  /** The stored host (`null` for the public service), `undefined` when not connected. */
  connectedHost: string | null | undefined;
  /** When the provider last accepted the stored token; `null`: not verified; `undefined`: the server does not say. */
  checkedAt: string | null | undefined;
  form: UseFormReturn<ProviderFormValues>;
  problem: SaveProblem | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onDisconnect: () => void;
  /** Checking the stored token with the provider: its last response, or why it could not be asked. */
  verification: { onVerify: () => void; pending: boolean; result: TokenCheck | undefined; error: unknown };
}

function status(connected: boolean, checkedAt: string | null | undefined): { text: MessageDescriptor; color: string } {
  if (!connected) return { text: msg`Not connected`, color: 'gray' };
  if (checkedAt) return { text: msg`Verified`, color: 'teal' };
  return checkedAt === null ? { text: msg`Saved, not verified`, color: 'yellow' } : { text: msg`Saved`, color: 'blue' };
}

/** One provider's card: its status, host, token, and connect, verify and disconnect. */
export function ProviderCardView({
  provider,
  connectedHost,
  checkedAt,
  form,
  problem,
  onSubmit,
  onDisconnect,
  verification,
}: ProviderCardViewProps) {
  const { t } = useLingui();
  const connected = connectedHost !== undefined;
  const name = PROVIDER_NAMES[provider];
  const Icon = ICONS[provider];
  const publicHost = PUBLIC_HOSTS[provider];
  const badge = status(connected, checkedAt);
  const { result, error } = verification;
  const why = error ? describeError(error) : undefined;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={name}>
      <FormProvider {...form}>
        <form onSubmit={onSubmit} noValidate aria-label={t`${name} token`}>
          <Stack gap="sm">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              {/* may shrink: a long host wraps instead of pushing the status off a phone's screen */}
              <Group gap="sm" wrap="nowrap" miw={0}>
                <ThemeIcon variant="light" size="lg" radius="md" color="gray">
                  <Icon size={20} />
                </ThemeIcon>
                <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                  <Title order={3} size="h5">
                    {name}
                  </Title>
                  {connected && (
                    <Text size="xs" c="dimmed" data-testid={`${provider}-host`}>
                      {connectedHost ?? publicHost}
                      {checkedAt && (
                        <>
                          {' · '}
                          <Trans>
                            verified <RelativeTime iso={checkedAt} size="xs" />
                          </Trans>
                        </>
                      )}
                    </Text>
                  )}
                </div>
              </Group>
              <Badge variant="light" color={badge.color} data-testid={`${provider}-status`} style={{ flexShrink: 0 }}>
                {t(badge.text)}
              </Badge>
            </Group>
            {problem && <SaveProblemAlert problem={problem} />}
            {/* a verdict on a token that was since removed no longer applies */}
            {connected && result && (
              <Alert variant="light" color={VERDICT_COLORS[result.outcome]} role="status" data-testid={`${provider}-verdict`}>
                {result.detail}
              </Alert>
            )}
            {why !== undefined ? <ErrorAlert>{t`Could not verify: ${why}`}</ErrorAlert> : null}
            <SecretField<ProviderFormValues>
              name="token"
              label={t`${name} token`}
              isSet={connected}
              clearable={false}
              showStatus={false}
              placeholder={t`Paste a token to connect`}
            />
            <TextField<ProviderFormValues>
              name="host"
              label={t`${name} host`}
              required={!publicHost}
              description={
                publicHost ? t`Empty for ${publicHost}; a domain or URL for a self-hosted server` : t`The domain or URL of your server`
              }
              placeholder={publicHost ?? 'sso.example.com'}
            />
            <Group justify="space-between">
              {connected ? (
                <Group gap="xs">
                  <Button variant="subtle" color="red" onClick={onDisconnect}>
                    <Trans>Disconnect</Trans>
                  </Button>
                  <Button variant="default" onClick={verification.onVerify} loading={verification.pending}>
                    <Trans>Verify</Trans>
                  </Button>
                </Group>
              ) : (
                <Text size="xs" c="dimmed">
                  <Trans>Tokens are stored encrypted and never shown again.</Trans>
                </Text>
              )}
              <Button type="submit" disabled={!form.formState.isDirty} loading={form.formState.isSubmitting}>
                {connected ? <Trans>Save</Trans> : <Trans>Connect</Trans>}
              </Button>
            </Group>
          </Stack>
        </form>
      </FormProvider>
    </Paper>
  );
}
