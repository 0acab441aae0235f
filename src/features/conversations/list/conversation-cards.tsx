import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Checkbox, Group, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { RelativeTime } from '../../../components/relative-time';
import { SandboxStatusBadge } from '../../../components/sandbox-status-badge';
import { useWindowRows } from '../../../components/use-window-rows';
import { WindowCardsList } from '../../../components/window-cards-list';
import type { AppConversation } from '../../../contract/conversations';
import { ownerName } from '../../../components/owners';
import type { Owner } from '../../../contract/team';
import { rowSelection } from '../../../components/row-selection';
import { ExecutionBadge } from '../shared/execution-badge';
import { repositoryLabel } from './labels';

interface ConversationCardsProps {
  items: AppConversation[];
  selected: Set<string>;
  onSelect: (selected: Set<string>) => void;
  /** The team, for an admin: whose each conversation is. */
  owners?: readonly Owner[];
}

/** The conversations as cards on a narrow screen: each with its title, both statuses and its times in view. */
export function ConversationCards({ items, selected, onSelect, owners }: ConversationCardsProps) {
  const { t } = useLingui();
  const { toggle } = rowSelection(
    items.map((item) => item.id),
    selected,
    onSelect,
  );
  const { bodyRef, rows, measureRow, spacers } = useWindowRows<HTMLUListElement>(items.length, {
    estimateSize: 120,
    getKey: (index) => items[index]!.id,
  });
  return (
    <WindowCardsList bodyRef={bodyRef} spacers={spacers} label={t`Conversations`}>
      {rows.map(({ index, key }) => {
        const item = items[index]!;
        const name = item.title ?? item.id;
        const owner = owners && ownerName(owners, item.created_by_user_id);
        return (
          <li
            key={key}
            data-conversation-id={item.id}
            data-index={index}
            ref={measureRow}
            style={{ paddingBottom: 'var(--mantine-spacing-sm)' }}
          >
            <Paper withBorder radius="md" p="sm" bg={selected.has(item.id) ? 'var(--mantine-primary-color-light)' : undefined}>
              <Stack gap={6}>
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <Checkbox aria-label={t`Select ${name}`} checked={selected.has(item.id)} onChange={() => toggle(item.id)} mt={2} />
                  <Anchor component={Link} to={`/conversations/${item.id}`} fw={500} style={{ overflowWrap: 'anywhere' }}>
                    {item.title ?? item.id}
                  </Anchor>
                </Group>
                <Text size="sm" c={item.selected_repository ? undefined : 'dimmed'}>
                  {repositoryLabel(item) ?? t`No repository`}
                </Text>
                {owner !== undefined && (
                  <Text size="sm">
                    <Trans>Owner: {owner}</Trans>
                  </Text>
                )}
                <Group gap="xs">
                  <SandboxStatusBadge status={item.sandbox_status} />
                  <ExecutionBadge status={item.execution_status} />
                </Group>
                <Text size="xs" c="dimmed">
                  <Trans>
                    Created <RelativeTime iso={item.created_at} /> · updated <RelativeTime iso={item.updated_at} />
                  </Trans>
                </Text>
              </Stack>
            </Paper>
          </li>
        );
      })}
    </WindowCardsList>
  );
}
