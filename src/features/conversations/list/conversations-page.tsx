import { useDebouncedCallback } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { describeError } from '../../../api/errors';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { unavailable } from '../../../components/unavailable-dialog';
import { useUrlParams } from '../../../components/use-url-params';
import type { StartTask } from '../../../contract/conversations';
import {
  conversationCountQuery,
  conversationKeys,
  conversationsQuery,
  deleteConversationMutation,
  startConversationMutation,
  startTaskQuery,
  tasksInFlightQuery,
  updateConversationMutation,
} from '../../../queries/conversations';
import { serverFeaturesQuery } from '../../../queries/server-capabilities';
import { settingsQuery } from '../../../queries/settings';
import { sandboxCapacityQuery } from '../../../queries/sandboxes';
import { ownersQuery } from '../../../queries/team';
import { useDismissedStarts } from './use-dismissed-starts';
import { useSignedInUser } from '../shared/use-signed-in-user';
import { type BulkAction, ConversationsView, type ListFilters } from './conversations-view';
import { apiFiltersFrom, listFiltersFrom } from './list-filters';
import { startingNoticeId } from './starting-notice';
import { useCardLayout } from '../../../components/use-card-layout';

/**
 * The form (and react-hook-form with it) loads when first opened: most visits to the list start
 * nothing. Should its code fail to load (the server was updated meanwhile), a dialog says so.
 */
const NewConversationDialog = lazy(() =>
  import('./new-conversation-dialog').then(
    (module) => ({ default: module.NewConversationDialog }),
    () => unavailable('New conversation'),
  ),
);

/** Starts of the last hour show at the top while they run (or failed). */
const TASK_WINDOW_MS = 60 * 60 * 1000;

/** Filters and sort live in the URL, so a view can be shared and survives a reload. */
function useListFilters() {
  const [params, update] = useUrlParams<'q' | 'from' | 'to' | 'sort' | 'archived' | 'owner' | 'sandbox'>();
  const filters = listFiltersFrom(params);
  const change = (changes: Partial<ListFilters>) =>
    update((current) => {
      const next = { ...listFiltersFrom(current), ...changes };
      return {
        q: next.title || undefined,
        from: next.from || undefined,
        to: next.to || undefined,
        sort: next.sort === 'CREATED_AT_DESC' ? undefined : next.sort,
        archived: next.archived ? 'true' : undefined,
        owner: next.owner || undefined,
        sandbox: next.sandbox || undefined,
      };
    });
  return [filters, change] as const;
}

const BULK = {
  archive: { verb: 'Archive', done: 'Archived' },
  unarchive: { verb: 'Unarchive', done: 'Unarchived' },
  delete: { verb: 'Delete', done: 'Deleted' },
} as const;

export function ConversationsPage() {
  const queryClient = useQueryClient();
  const [filters, changeFilters] = useListFilters();
  const [titleInput, setTitleInput] = useState(filters.title);
  const owners = useQuery(ownersQuery(queryClient)).data ?? undefined;
  const signedInUserId = useSignedInUser().userId;
  const searchTitle = useDebouncedCallback((title: string) => changeFilters({ title: title.trim() }), 300);
  const typeTitle = (title: string) => {
    setTitleInput(title);
    searchTitle(title);
  };
  // The URL's title changing otherwise (Back, Clear filters) shows in the box.
  const [shownTitle, setShownTitle] = useState(filters.title);
  if (filters.title !== shownTitle) {
    setShownTitle(filters.title);
    if (titleInput.trim() !== filters.title) setTitleInput(filters.title);
  }

  const features = useQuery(serverFeaturesQuery()).data;
  const canArchive = features?.conversationArchive === true;
  const apiFilters = apiFiltersFrom(filters, canArchive);
  const list = useInfiniteQuery(conversationsQuery(apiFilters));
  const { sort: _sort, ...countFilters } = apiFilters;
  const count = useQuery(conversationCountQuery(countFilters));

  const [since] = useState(() => new Date(Date.now() - TASK_WINDOW_MS).toISOString());
  const tasks = useQuery(tasksInFlightQuery(since));
  // The table's columns fit down to a tablet's width.
  const layout = useCardLayout('47.99em');
  const capacity = useQuery(sandboxCapacityQuery(features?.sandboxCapacity === true));
  const [dismissed, dismiss] = useDismissedStarts(signedInUserId);
  const shownTasks = (tasks.data ?? []).filter((task) => !dismissed.has(task.id));
  // A start that has just left the tasks under way (READY, or failed) joins the list. Not on
  // mount: the list asked for before the first render is as fresh as it gets.
  const underWay = useMemo(
    () => new Set((tasks.data ?? []).filter((task) => task.status !== 'ERROR').map((task) => task.id)),
    [tasks.data],
  );
  const wasUnderWay = useRef(underWay);
  useEffect(() => {
    const left = [...wasUnderWay.current].some((id) => !underWay.has(id));
    wasUnderWay.current = underWay;
    if (!left) return;
    void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: conversationKeys.counts() });
  }, [underWay, queryClient]);

  // A start made here is followed: once READY, its conversation opens.
  const navigate = useNavigate();
  const [following, setFollowing] = useState<string | null>(null);
  const followed = useQuery({ ...startTaskQuery(following ?? ''), enabled: following !== null });
  const ready = followed.data?.status === 'READY' ? followed.data : null;
  // Its "Conversation starting" notice stays while it starts, and goes once it ended or is no longer followed.
  const ended = followed.data?.status === 'READY' || followed.data?.status === 'ERROR';
  useEffect(() => {
    if (following === null) return;
    if (ended) notifications.hide(startingNoticeId(following));
    return () => {
      notifications.hide(startingNoticeId(following));
    };
  }, [following, ended]);
  useEffect(() => {
    if (!ready) return;
    // The running cap may have paused others for this one: the task names them.
    if (ready.detail) notifications.show({ color: 'yellow', title: 'Other conversations were paused', message: ready.detail });
    void navigate(`/conversations/${ready.app_conversation_id}`);
  }, [ready, navigate]);

  const retry = useMutation(startConversationMutation(queryClient));
  const retryTask = (task: StartTask) =>
    retry.mutate(task.request, {
      onSuccess: (started) => {
        dismiss(task.id);
        setFollowing(started.id);
      },
      onError: (error) => notifications.show({ color: 'red', title: 'Could not start it again', message: describeError(error) }),
    });

  const update = useMutation(updateConversationMutation(queryClient));
  const remove = useMutation(deleteConversationMutation(queryClient));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [newOpen, setNewOpen] = useState(false);
  const [bulk, setBulk] = useState<BulkAction | null>(null);
  const [bulkRunning, setBulkRunning] = useState(false);
  const items = useMemo(() => list.data?.pages.flatMap((page) => page.items), [list.data]);
  // Asked only for the first conversation's sake: the empty list says how to get a model.
  const noModel = useQuery({ ...settingsQuery(), select: (settings) => !settings?.llm_model, enabled: items?.length === 0 }).data;
  const selection = (items ?? []).filter((item) => selected.has(item.id));

  const runBulk = async (action: BulkAction) => {
    setBulkRunning(true);
    const failures: string[] = [];
    for (const conversation of selection) {
      try {
        if (action === 'delete') await remove.mutateAsync(conversation.id);
        else await update.mutateAsync({ id: conversation.id, archived: action === 'archive' });
      } catch (error) {
        failures.push(`${conversation.title ?? conversation.id}: ${describeError(error)}`);
      }
    }
    setBulkRunning(false);
    setBulk(null);
    setSelected(new Set());
    const done = selection.length - failures.length;
    notifications.show(
      failures.length === 0
        ? { color: 'teal', title: `${BULK[action].done} ${done} ${done === 1 ? 'conversation' : 'conversations'}`, message: '' }
        : { color: 'red', title: `${BULK[action].done} ${done} of ${selection.length}`, message: failures.join('\n') },
    );
  };

  return (
    <>
      <ConversationsView
        canArchive={canArchive}
        canSort={features?.conversationSort === true}
        filters={filters}
        titleInput={titleInput}
        onTitleInput={typeTitle}
        // Written before whatever comes next (a link, a shortcut), so it cannot land after it and bring the user back.
        onTitleLeave={() => searchTitle.flush()}
        onFiltersChange={(changes) => {
          setSelected(new Set()); // a selection belongs to the rows it was made on
          changeFilters(changes);
        }}
        items={items}
        noModel={noModel}
        error={list.error}
        onRetry={() => void list.refetch()}
        count={count.data}
        hasMore={list.hasNextPage}
        loadingMore={list.isFetchingNextPage}
        onLoadMore={() => void list.fetchNextPage()}
        tasks={shownTasks}
        retryingTask={retry.isPending ? shownTasks.find((task) => task.request === retry.variables)?.id : undefined}
        onRetryTask={retryTask}
        onDismissTask={(task) => dismiss(task.id)}
        selected={selected}
        onSelect={setSelected}
        onBulk={setBulk}
        onNew={() => setNewOpen(true)}
        layout={layout}
        capacity={capacity.data}
        owners={owners}
        signedInUserId={signedInUserId}
      />
      {newOpen && (
        <Suspense fallback={null}>
          <NewConversationDialog
            onClose={() => setNewOpen(false)}
            onStarted={(task) => {
              setNewOpen(false);
              setFollowing(task.id);
            }}
          />
        </Suspense>
      )}
      {bulk && (
        <ConfirmDialog
          title={`${BULK[bulk].verb} ${selection.length} ${selection.length === 1 ? 'conversation' : 'conversations'}?`}
          confirmLabel={`${BULK[bulk].verb} ${selection.length}`}
          pending={bulkRunning}
          onClose={() => setBulk(null)}
          onConfirm={() => void runBulk(bulk)}
        >
          {bulk === 'delete'
            ? 'Each is deleted with its start tasks, and with its sandbox when it started one no other conversation uses. This cannot be undone.'
            : bulk === 'archive'
              ? 'Archived conversations are hidden from the list until "Archived" is on.'
              : 'They come back to the list.'}
          <ul>
            {selection.slice(0, 10).map((conversation) => (
              <li key={conversation.id}>{conversation.title ?? conversation.id}</li>
            ))}
            {selection.length > 10 && <li>and {selection.length - 10} more</li>}
          </ul>
        </ConfirmDialog>
      )}
    </>
  );
}
