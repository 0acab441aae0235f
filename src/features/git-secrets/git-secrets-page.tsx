import { ActionIcon, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { describeError } from '../../api/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { LoadError } from '../../components/load-error';
import { PageHeader } from '../../components/page-header';
import { PROVIDERS } from '../../contract/secrets';
import { ProviderCard } from './provider-card';
import { useConnectedProviders, useCustomSecrets, useDeleteSecret, useDisconnectAllProviders } from './queries';
import { SecretDialog } from './secret-dialog';

export function GitSecretsPage() {
  return (
    <>
      <PageHeader
        title="Git & secrets"
        description="Tokens the agent clones and pushes with, and secrets it gets as environment variables."
      />
      <Stack gap="xl">
        <GitProviders />
        <CustomSecrets />
      </Stack>
    </>
  );
}

function GitProviders() {
  const connected = useConnectedProviders();
  const disconnectAll = useDisconnectAllProviders();
  const [confirming, setConfirming] = useState(false);
  const anyConnected = Object.keys(connected.data ?? {}).length > 0;

  return (
    <section aria-labelledby="providers-title">
      <Group justify="space-between" mb="sm">
        <div>
          <Title order={2} size="h3" id="providers-title">
            Git providers
          </Title>
          <Text size="sm" c="dimmed">
            One token per provider. Self-hosted servers need their host.
          </Text>
        </div>
        <Button variant="default" color="red" disabled={!anyConnected} onClick={() => setConfirming(true)}>
          Disconnect all
        </Button>
      </Group>
      {connected.data === undefined ? (
        connected.isError ? (
          <LoadError what="git providers" error={connected.error} onRetry={() => void connected.refetch()} />
        ) : (
          <Skeleton height={220} radius="md" />
        )
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {PROVIDERS.map((provider) => (
            <ProviderCard
              key={provider}
              provider={provider}
              connectedHost={provider in connected.data ? connected.data[provider] : undefined}
            />
          ))}
        </SimpleGrid>
      )}
      {confirming && (
        <ConfirmDialog
          title="Disconnect all git providers?"
          confirmLabel="Disconnect all"
          pending={disconnectAll.isPending}
          error={disconnectAll.error}
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            disconnectAll.mutate(undefined, {
              onSuccess: () => {
                setConfirming(false);
                notifications.show({
                  color: 'teal',
                  title: 'Git providers disconnected',
                  message: 'All tokens were removed. Custom secrets stay.',
                });
              },
            })
          }
        >
          Every git provider token is removed from the server. Custom secrets stay.
        </ConfirmDialog>
      )}
    </section>
  );
}

type Dialog = { type: 'edit'; secret: { name: string; description: string | null } | null } | { type: 'delete'; name: string };

function CustomSecrets() {
  const secrets = useCustomSecrets();
  const remove = useDeleteSecret();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const list = secrets.data?.custom_secrets ?? [];

  const confirmDelete = (name: string) => {
    setDialog(null);
    remove.mutate(name, {
      onSuccess: () => notifications.show({ color: 'teal', title: 'Secret deleted', message: name }),
      onError: (error) => notifications.show({ color: 'red', title: `${name} was not deleted`, message: describeError(error) }),
    });
  };

  return (
    <section aria-labelledby="secrets-title">
      <Group justify="space-between" mb="sm">
        <div>
          <Title order={2} size="h3" id="secrets-title">
            Custom secrets
          </Title>
          <Text size="sm" c="dimmed">
            Values are stored encrypted and never shown again.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ type: 'edit', secret: null })}>
          Add secret
        </Button>
      </Group>
      {secrets.data === undefined ? (
        secrets.isError ? (
          <LoadError what="custom secrets" error={secrets.error} onRetry={() => void secrets.refetch()} />
        ) : (
          <Skeleton height={120} radius="md" />
        )
      ) : list.length === 0 ? (
        <Paper withBorder p="xl" radius="md" ta="center">
          <Text fw={600}>No custom secrets yet</Text>
          <Text size="sm" c="dimmed" mt={4}>
            Add API keys and passwords the agent should have in its environment.
          </Text>
        </Paper>
      ) : (
        <Table striped highlightOnHover aria-label="Custom secrets" verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((secret) => (
              <Table.Tr key={secret.name}>
                <Table.Td ff="monospace">{secret.name}</Table.Td>
                <Table.Td>{secret.description || <Text c="dimmed">—</Text>}</Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Edit ${secret.name}`}
                      title="Edit"
                      onClick={() => setDialog({ type: 'edit', secret })}
                    >
                      <IconPencil size={18} />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Delete ${secret.name}`}
                      title="Delete"
                      onClick={() => setDialog({ type: 'delete', name: secret.name })}
                    >
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {dialog?.type === 'edit' && (
        <SecretDialog key={dialog.secret?.name ?? 'new'} existing={dialog.secret} onClose={() => setDialog(null)} />
      )}
      {dialog?.type === 'delete' && (
        <ConfirmDialog
          title={`Delete ${dialog.name}?`}
          confirmLabel="Delete"
          onConfirm={() => confirmDelete(dialog.name)}
          onClose={() => setDialog(null)}
        >
          The agent will no longer get <b>{dialog.name}</b> in its environment. This cannot be undone.
        </ConfirmDialog>
      )}
    </section>
  );
}
