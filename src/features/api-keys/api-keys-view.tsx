import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Table, Text } from '@mantine/core';
import { IconKey, IconTrash } from '@tabler/icons-react';
import { EmptyState } from '../../components/empty-state';
import { RelativeTime } from '../../components/relative-time';
import { RowActions, RowActionsHeader } from '../../components/row-actions';
import type { ApiKey } from '../../contract/team';

export interface ApiKeysViewProps {
  keys: ApiKey[];
  onCreate: () => void;
  onDelete: (key: ApiKey) => void;
  /** What is before it has expired. */
  now: number;
}

/** One's API keys: their names, how they begin, when made, last used and when they stop working. */
export function ApiKeysView({ keys, onCreate, onDelete, now }: ApiKeysViewProps) {
  const { t } = useLingui();
  /** A key's name, or its number when it has none. */
  const keyName = ({ name, id }: ApiKey) => name || t`Key ${id}`;
  if (keys.length === 0) {
    return (
      <EmptyState title={t`No API keys`} description={t`A key lets a script call this server as you, with your role.`}>
        <Button leftSection={<IconKey size={16} />} onClick={onCreate}>
          <Trans>Create an API key</Trans>
        </Button>
      </EmptyState>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640} type="native">
      <Table verticalSpacing="sm" aria-label={t`API keys`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Trans>Name</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Key</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Created</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Last used</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Expires</Trans>
            </Table.Th>
            <RowActionsHeader />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((key) => (
            <Table.Tr key={key.id}>
              <Table.Td>{keyName(key)}</Table.Td>
              <Table.Td>
                <Text span ff="monospace" size="sm">
                  {key.prefix ? `${key.prefix}…` : '—'}
                </Text>
              </Table.Td>
              <Table.Td>
                <RelativeTime iso={key.created_at} />
              </Table.Td>
              <Table.Td>
                {key.last_used_at ? (
                  <RelativeTime iso={key.last_used_at} />
                ) : (
                  <Text size="sm" c="dimmed">
                    <Trans>Never</Trans>
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {key.expires_at ? (
                  <Text span size="sm" c={Date.parse(key.expires_at) <= now ? 'red' : undefined}>
                    <RelativeTime iso={key.expires_at} />
                  </Text>
                ) : (
                  <Text size="sm" c="dimmed">
                    <Trans>Never</Trans>
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <RowActions
                  name={keyName(key)}
                  actions={[{ verb: t`Delete`, icon: <IconTrash size={16} />, danger: true, onClick: () => onDelete(key) }]}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
