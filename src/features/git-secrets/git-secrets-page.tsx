import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, SimpleGrid, Table, Tabs, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { describeError } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { QueryContent } from '../../components/query-content';
import { RowActions, RowActionsHeader } from '../../components/row-actions';
import { SectionHeader } from '../../components/section-header';
import { unavailable } from '../../components/unavailable-dialog';
import { useUrlParams } from '../../components/use-url-params';
import { PROVIDERS } from '../../contract/secrets';
import { connectedProvidersQuery, disconnectAllProvidersMutation, providerStatusesQuery } from '../../queries/git-providers';
import { deleteSecretMutation, secretsQuery } from '../../queries/secrets';
import { ProviderCard } from './provider-card';
import type { SecretDialog as SecretDialogLoaded } from './secret-dialog';

/** What the router loads: the page, and the catalog of its strings. */
export { GitSecretsPage as Page };
export { loadGitSecretsCatalog as catalog } from './catalog';

/** Loaded when first opened: the secrets table shows without it. Should its code fail to load, a dialog says so. */
const SecretDialog = lazy((): Promise<{ default: typeof SecretDialogLoaded }> =>
  import('./secret-dialog').then(
    (module) => ({ default: module.SecretDialog }),
    () => unavailable(msg`Secret`),
  ),
);

/** Tabs, so custom secrets are one click away, not below five provider cards; the tab is in the URL (`?tab=secrets`). */
export function GitSecretsPage() {
  const { t } = useLingui();
  const [params, update] = useUrlParams<'tab'>();
  const tab = params.get('tab') === 'secrets' ? 'secrets' : 'providers';
  const connected = useQuery(connectedProvidersQuery());
  const secrets = useQuery(secretsQuery());
  const count = (n: number | undefined) =>
    n === undefined ? null : (
      <Badge size="sm" variant="light" color="gray" circle>
        {n}
      </Badge>
    );
  return (
    <>
      <PageHeader
        title={t`Git & secrets`}
        description={t`Tokens the agent clones and pushes with, and secrets it gets as environment variables.`}
      />
      <Tabs value={tab} onChange={(next) => update({ tab: next === 'secrets' ? 'secrets' : undefined })}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="providers" rightSection={count(connected.data && Object.keys(connected.data).length)}>
            <Trans>Git providers</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="secrets" rightSection={count(secrets.data?.custom_secrets.length)}>
            <Trans>Custom secrets</Trans>
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="providers">
          <GitProviders />
        </Tabs.Panel>
        <Tabs.Panel value="secrets">
          <CustomSecrets />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

function GitProviders() {
  const { t } = useLingui();
  const connected = useQuery(connectedProvidersQuery());
  const statuses = useQuery(providerStatusesQuery());
  /** `undefined` while the server has not said (or cannot say: OpenHands keeps no verification). */
  const checkedAt = (provider: string) => {
    const known = statuses.data?.find((status) => status.provider === provider);
    return known ? known.checked_at : undefined;
  };
  const disconnectAll = useMutation(disconnectAllProvidersMutation(useQueryClient()));
  const [confirming, setConfirming] = useState(false);
  const anyConnected = Object.keys(connected.data ?? {}).length > 0;

  return (
    <section aria-labelledby="providers-title">
      <SectionHeader
        id="providers-title"
        title={t`Git providers`}
        description={t`One token per provider. Self-hosted servers need their host.`}
        actions={
          <Button variant="default" color="red" disabled={!anyConnected} onClick={() => setConfirming(true)}>
            <Trans>Disconnect all</Trans>
          </Button>
        }
      />
      <QueryContent query={connected} what={t`git providers`} skeletonHeight={220}>
        {(hosts) => (
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {PROVIDERS.map((provider) => (
              <ProviderCard
                key={provider}
                provider={provider}
                connectedHost={provider in hosts ? hosts[provider] : undefined}
                checkedAt={checkedAt(provider)}
              />
            ))}
          </SimpleGrid>
        )}
      </QueryContent>
      {confirming && (
        <ConfirmDialog
          title={t`Disconnect all git providers?`}
          confirmLabel={t`Disconnect all`}
          pending={disconnectAll.isPending}
          error={disconnectAll.error}
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            disconnectAll.mutate(undefined, {
              onSuccess: () => {
                setConfirming(false);
                notifications.show({
                  color: 'teal',
                  title: t`Git providers disconnected`,
                  message: t`All tokens were removed. Custom secrets stay.`,
                });
              },
            })
          }
        >
          <Trans>Every git provider token is removed from the server. Custom secrets stay.</Trans>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** The dialog or drawer open over the page. */
type OpenDialog = { type: 'edit'; secret: { name: string; description: string | null } | null } | { type: 'delete'; name: string };

function CustomSecrets() {
  const { t } = useLingui();
  const secrets = useQuery(secretsQuery());
  const remove = useMutation(deleteSecretMutation(useQueryClient()));
  const [dialog, setDialog] = useState<OpenDialog | null>(null);

  const confirmDelete = (name: string) => {
    setDialog(null);
    remove.mutate(name, {
      onSuccess: () => notifications.show({ color: 'teal', title: t`Secret deleted`, message: name }),
      onError: (error) => notifications.show({ color: 'red', title: t`${name} was not deleted`, message: describeError(error) }),
    });
  };

  const deleting = dialog?.type === 'delete' ? dialog.name : null;

  return (
    <section aria-labelledby="secrets-title">
      <SectionHeader
        id="secrets-title"
        title={t`Custom secrets`}
        description={t`Values are stored encrypted and never shown again.`}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ type: 'edit', secret: null })}>
            <Trans>Add secret</Trans>
          </Button>
        }
      />
      <QueryContent query={secrets} what={t`custom secrets`}>
        {({ custom_secrets: list }) =>
          list.length === 0 ? (
            <EmptyState
              title={t`No custom secrets yet`}
              description={t`Add API keys and passwords the agent should have in its environment.`}
            />
          ) : (
            <Table striped highlightOnHover aria-label={t`Custom secrets`} verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>
                    <Trans>Name</Trans>
                  </Table.Th>
                  <Table.Th>
                    <Trans>Description</Trans>
                  </Table.Th>
                  <RowActionsHeader />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((secret) => (
                  <Table.Tr key={secret.name}>
                    {/* a long name wraps rather than pushing the actions off a phone's screen */}
                    <Table.Td ff="monospace" style={{ wordBreak: 'break-all' }}>
                      {secret.name}
                    </Table.Td>
                    <Table.Td>{secret.description || <Text c="dimmed">—</Text>}</Table.Td>
                    <Table.Td>
                      <RowActions
                        name={secret.name}
                        actions={[
                          { verb: t`Edit`, icon: <IconPencil size={18} />, onClick: () => setDialog({ type: 'edit', secret }) },
                          {
                            verb: t`Delete`,
                            icon: <IconTrash size={18} />,
                            danger: true,
                            onClick: () => setDialog({ type: 'delete', name: secret.name }),
                          },
                        ]}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        }
      </QueryContent>
      {dialog?.type === 'edit' && (
        <Suspense fallback={null}>
          <SecretDialog key={dialog.secret?.name ?? 'new'} existing={dialog.secret} onClose={() => setDialog(null)} />
        </Suspense>
      )}
      {deleting !== null && (
        <ConfirmDialog
          title={t`Delete ${deleting}?`}
          confirmLabel={t`Delete`}
          onConfirm={() => confirmDelete(deleting)}
          onClose={() => setDialog(null)}
        >
          <Trans>
            The agent will no longer get <b>{deleting}</b> in its environment. This cannot be undone.
          </Trans>
        </ConfirmDialog>
      )}
    </section>
  );
}
