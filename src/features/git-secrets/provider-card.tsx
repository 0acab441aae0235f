import { Trans, useLingui } from '@lingui/react/macro';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useServerSubmit } from '../../components/form/use-server-submit';
import { type Provider, PROVIDER_NAMES, PUBLIC_HOSTS } from '../../contract/secrets';
import { saveProviderMutation, verifyProviderMutation } from '../../queries/git-providers';
import { ProviderCardView } from './provider-card-view';
import { type ProviderFormValues, providerFormValues, resolverFor, toEntry } from './provider-form';

interface ProviderCardProps {
  provider: Provider;
  connectedHost: string | null | undefined;
  /** When the provider last accepted the stored token (`null`: not verified; `undefined`: the server does not say). */
  checkedAt: string | null | undefined;
}

/**
 * One git provider: its token (write-only; empty keeps the stored one) and host, saved on its
 * own, a check of the stored token with the provider, and a disconnect that removes just this provider.
 */
export function ProviderCard({ provider, connectedHost, checkedAt }: ProviderCardProps) {
  const { t, i18n } = useLingui();
  const connected = connectedHost !== undefined;
  const name = PROVIDER_NAMES[provider];
  const publicHost = PUBLIC_HOSTS[provider];
  const values = providerFormValues(connectedHost);
  const form = useForm<ProviderFormValues>({
    defaultValues: values,
    values,
    resetOptions: { keepDirtyValues: true },
    resolver: resolverFor(provider, connected, i18n),
    mode: 'onSubmit',
  });
  const queryClient = useQueryClient();
  const save = useMutation(saveProviderMutation(queryClient));
  // Its own mutation, so a failed save never shows up as a disconnect error.
  const disconnectProvider = useMutation(saveProviderMutation(queryClient));
  const verify = useMutation(verifyProviderMutation(queryClient));
  const [confirming, setConfirming] = useState(false);

  const { submit, problem } = useServerSubmit(form, {
    save: async (current) => {
      verify.reset(); // a verdict on the token that was stored before
      const { token, host } = toEntry(current);
      await save.mutateAsync({ provider, token, host });
      form.reset(providerFormValues(host), { keepDirtyValues: false });
      notifications.show({
        color: 'teal',
        title: t`${name} saved`,
        message: host ? t`Host ${host}` : publicHost ? t`Using ${publicHost}` : t`Using the default host`,
      });
    },
    serverErrors: {
      isField: (path) => path === 'token' || path === 'host',
      locPrefix: ['body', 'provider_tokens', provider],
      // OpenHands refuses a token the provider rejects with 401 {"error": "Invalid token…"}.
      statusField: { 401: 'token' },
      verdict: t`Not saved`,
    },
  });

  const disconnect = () =>
    disconnectProvider.mutate(
      { provider, remove: true },
      {
        onSuccess: () => {
          setConfirming(false);
          verify.reset();
          notifications.show({ color: 'teal', title: t`${name} disconnected`, message: t`Its token was removed from the server.` });
        },
      },
    );

  return (
    <>
      <ProviderCardView
        provider={provider}
        connectedHost={connectedHost}
        checkedAt={checkedAt}
        form={form}
        problem={problem}
        onSubmit={submit}
        onDisconnect={() => {
          disconnectProvider.reset();
          setConfirming(true);
        }}
        verification={{ onVerify: () => verify.mutate(provider), pending: verify.isPending, result: verify.data, error: verify.error }}
      />
      {confirming && (
        <ConfirmDialog
          title={t`Disconnect ${name}?`}
          confirmLabel={t`Disconnect`}
          onConfirm={disconnect}
          onClose={() => setConfirming(false)}
          pending={disconnectProvider.isPending}
          error={disconnectProvider.error}
        >
          {connectedHost ? (
            <Trans>
              The {name} token is removed from the server. The agent can no longer use {name} at {connectedHost} until you connect it again.
            </Trans>
          ) : (
            <Trans>
              The {name} token is removed from the server. The agent can no longer use {name} until you connect it again.
            </Trans>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}
