import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, NativeSelect, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSearch, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { PAGE_SEARCH } from '../../../components/page-search';
import { SandboxCapacityLine } from '../../../components/sandbox-capacity';
import { LoadedContent } from '../../../components/query-content';
import { SelectionToolbar } from '../../../components/selection-toolbar';
import { OwnerSelect } from '../../../components/owner-select';
import { ownerName } from '../../../components/owners';
import { shortId } from '../../../components/short-id';
import type { Owner } from '../../../contract/team';
import type { AppConversation, ConversationSortOrder, StartTask } from '../../../contract/conversations';
import { DEMO_MODEL } from '../../../contract/demo-model';
import type { SandboxCapacity } from '../../../contract/sandboxes';
import { ConversationCards } from './conversation-cards';
import { ConversationsTable } from './conversations-table';
import { SORT_OPTIONS } from './labels';
import { TaskProgress } from '../shared/task-progress';

/** The list's filters as the URL holds them: dates as `yyyy-mm-dd`. */
export interface ListFilters {
  title: string;
  from: string;
  to: string;
  sort: ConversationSortOrder;
  archived: boolean;
  /** One user's conversations (an admin's filter); '' for everyone's. */
  owner: string;
  /** The conversations one sandbox serves (from the Sandboxes page); '' for every sandbox's. */
  sandbox: string;
}

export type BulkAction = 'archive' | 'unarchive' | 'delete';

export interface ConversationsViewProps {
  filters: ListFilters;
  /** What is typed in the search box (it reaches the filters a moment later). */
  titleInput: string;
  onTitleInput: (title: string) => void;
  /** The search field was left: a search still waiting for the typing to pause goes now. */
  onTitleLeave?: () => void;
  onFiltersChange: (changes: Partial<ListFilters>) => void;
  /** The rows loaded so far, `undefined` while the first page loads. */
  items: AppConversation[] | undefined;
  error: unknown;
  onRetry: () => void;
  count: number | undefined;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  tasks: StartTask[];
  retryingTask: string | undefined;
  onRetryTask: (task: StartTask) => void;
  onDismissTask: (task: StartTask) => void;
  selected: Set<string>;
  onSelect: (selected: Set<string>) => void;
  onBulk: (action: BulkAction) => void;
  /** The server can archive (OpenHands cannot): the Archived filter and the bulk (un)archive show. */
  canArchive?: boolean;
  /** The server sorts as asked (OpenHands always shows the newest first): the Sort choice shows. */
  canSort?: boolean;
  onNew: () => void;
  /** How many sandboxes run and exist against the caps, when the server says. */
  capacity?: SandboxCapacity;
  /** No LLM is chosen in Settings (asked only while there is no conversation): the empty list says how to get one. */
  noModel?: boolean;
  /** Cards instead of a table, for narrow screens. */
  layout?: 'table' | 'cards';
  /** The team, for an admin: an Owner column and filter show. */
  owners?: readonly Owner[];
  /** Who is signed in (`null` on a server without teams): another user's failed start names them and cannot be retried here. */
  signedInUserId?: string | null;
  /** What else a conversation can start from (suggested tasks, an issue), above the list. */
  starters?: ReactNode;
}

const filtered = (filters: ListFilters) => Boolean(filters.title || filters.from || filters.to || filters.owner || filters.sandbox);

function NoModelHint() {
  return (
    <Trans>
      No LLM is set up yet: choose one in{' '}
      <Anchor component={Link} to="/settings#llm" size="sm" underline="always">
        Settings › LLM
      </Anchor>
      , or start with the demo model (<code>{DEMO_MODEL}</code>), a scripted session that needs no LLM and no key.
    </Trans>
  );
}

/** The conversations list as it looks: starts under way, filters, the table and "Load more". */
export function ConversationsView(props: ConversationsViewProps) {
  const { t, i18n } = useLingui();
  const { filters, items, selected, count, canArchive = true, canSort = true } = props;
  const ConversationList = props.layout === 'cards' ? ConversationCards : ConversationsTable;
  const selection = (items ?? []).filter((item) => selected.has(item.id));
  const newButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={props.onNew}>
      <Trans>New conversation</Trans>
    </Button>
  );
  const { sandbox } = filters;
  const sandboxShortId = shortId(sandbox);
  const clearFilters = () => {
    props.onTitleInput('');
    props.onFiltersChange({ title: '', from: '', to: '', owner: '', sandbox: '' });
  };

  return (
    <>
      <PageHeader
        title={t`Conversations`}
        description={t`Tasks for the agent, each in a sandbox of its own or a shared one.`}
        actions={newButton}
      />
      <SandboxCapacityLine capacity={props.capacity} />

      {props.tasks.length > 0 && (
        <Stack gap="xs" mb="md" aria-label={t`Starts under way`}>
          {props.tasks.map((task) => (
            <TaskProgress
              key={task.id}
              task={task}
              onRetry={props.onRetryTask}
              onDismiss={props.onDismissTask}
              retrying={props.retryingTask === task.id}
              ownerName={
                props.signedInUserId && task.created_by_user_id && task.created_by_user_id !== props.signedInUserId
                  ? ownerName(props.owners ?? [], task.created_by_user_id)
                  : undefined
              }
            />
          ))}
        </Stack>
      )}
      {props.starters}

      <Group mb="md" align="flex-end" wrap="wrap">
        <TextInput
          {...PAGE_SEARCH}
          label={t`Search titles`}
          leftSection={<IconSearch size={16} />}
          value={props.titleInput}
          onChange={(event) => props.onTitleInput(event.currentTarget.value)}
          onBlur={props.onTitleLeave}
          w={260}
        />
        <TextInput
          label={t`Created from`}
          type="date"
          value={filters.from}
          onChange={(event) => props.onFiltersChange({ from: event.currentTarget.value })}
        />
        <TextInput
          label={t`Created until`}
          type="date"
          value={filters.to}
          onChange={(event) => props.onFiltersChange({ to: event.currentTarget.value })}
        />
        {props.owners && <OwnerSelect owners={props.owners} value={filters.owner} onChange={(owner) => props.onFiltersChange({ owner })} />}
        {canSort && (
          <NativeSelect
            label={t`Sort`}
            data={SORT_OPTIONS.map(({ value, label }) => ({ value, label: i18n._(label) }))}
            value={filters.sort}
            onChange={(event) => props.onFiltersChange({ sort: event.currentTarget.value as ConversationSortOrder })}
          />
        )}
        {canArchive && (
          <Switch
            label={t`Archived`}
            checked={filters.archived}
            onChange={(event) => props.onFiltersChange({ archived: event.currentTarget.checked })}
            mb={8}
          />
        )}
        {filters.sandbox && (
          <Button
            variant="light"
            rightSection={<IconX size={14} />}
            onClick={() => props.onFiltersChange({ sandbox: '' })}
            aria-label={t`In sandbox ${sandbox}: show every sandbox's`}
          >
            <Trans>In sandbox {sandboxShortId}</Trans>
          </Button>
        )}
        {filtered(filters) && (
          <Button variant="subtle" onClick={clearFilters}>
            <Trans>Clear filters</Trans>
          </Button>
        )}
      </Group>

      <SelectionToolbar
        label={t`Selected conversations`}
        count={selection.length}
        actions={[
          ...(canArchive
            ? [
                {
                  label: filters.archived ? t`Unarchive` : t`Archive`,
                  count: selection.length,
                  onClick: () => props.onBulk(filters.archived ? 'unarchive' : 'archive'),
                },
              ]
            : []),
          { label: t`Delete`, count: selection.length, onClick: () => props.onBulk('delete'), destructive: true },
        ]}
        onClear={() => props.onSelect(new Set())}
      />

      <LoadedContent data={items} error={props.error} onRetry={props.onRetry} what={t`conversations`} skeletonHeight={180}>
        {(rows) =>
          rows.length === 0 ? (
            <EmptyState
              title={
                filtered(filters)
                  ? t`No conversations match these filters`
                  : filters.archived
                    ? t`No archived conversations`
                    : t`No conversations yet`
              }
              description={!filtered(filters) && !filters.archived && props.noModel ? <NoModelHint /> : undefined}
            >
              {filtered(filters) ? (
                <Button variant="default" onClick={clearFilters}>
                  <Trans>Clear filters</Trans>
                </Button>
              ) : (
                !filters.archived && newButton
              )}
            </EmptyState>
          ) : (
            <ConversationList items={rows} selected={selected} onSelect={props.onSelect} owners={props.owners} />
          )
        }
      </LoadedContent>

      <Group justify="space-between" mt="sm">
        <Text size="sm" c="dimmed" aria-live="polite">
          {count === undefined ? '' : t`${plural(count, { one: '# conversation', other: '# conversations' })}`}
        </Text>
        {props.hasMore && (
          <Button variant="default" size="xs" onClick={props.onLoadMore} loading={props.loadingMore}>
            <Trans>Load more</Trans>
          </Button>
        )}
      </Group>
    </>
  );
}
