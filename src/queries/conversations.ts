import { t } from '@lingui/core/macro';
import {
  infiniteQueryOptions,
  keepPreviousData,
  mutationOptions,
  type QueryClient,
  queryOptions,
  type InfiniteData,
} from '@tanstack/react-query';
import {
  type ConversationFilters,
  countConversations,
  archiveConversation,
  streamContinueInNewSandbox,
  conversationsBySandbox,
  deleteConversation,
  getConversations,
  getStartTasks,
  recentStartTasks,
  searchConversations,
  renameConversation,
  streamStartConversation,
} from '../api/conversations';
import { ApiError } from '../api/errors';
import { sandboxKeys } from './sandboxes';
import type { AppConversation, AppConversationPage, StartRequestInput, StartTask } from '../contract/conversations';

export const conversationKeys = {
  all: ['conversations'] as const,
  lists: () => [...conversationKeys.all, 'list'] as const,
  list: (filters: ConversationFilters) => [...conversationKeys.lists(), filters] as const,
  counts: () => [...conversationKeys.all, 'count'] as const,
  count: (filters: ConversationFilters) => [...conversationKeys.counts(), filters] as const,
  details: () => [...conversationKeys.all, 'detail'] as const,
  detail: (id: string) => [...conversationKeys.details(), id] as const,
  titles: (ids: readonly string[]) => [...conversationKeys.all, 'titles', ids] as const,
  bySandbox: (sandboxIds: readonly string[]) => [...conversationKeys.all, 'by-sandbox', sandboxIds] as const,
  tasks: () => [...conversationKeys.all, 'start-tasks'] as const,
  recentTasks: (since: string) => [...conversationKeys.tasks(), 'recent', since] as const,
  task: (id: string) => [...conversationKeys.tasks(), id] as const,
};

const PAGE_SIZE = 50;
const isFinished = (task: StartTask) => task.status === 'READY' || task.status === 'ERROR';
/** Live statuses (sandbox, agent) change behind the list's back: it is read again now and then. */
const LIVE_MS = 15_000;

/** Conversations matching `filters`, a page at a time ("Load more"). */
export const conversationsQuery = (filters: ConversationFilters) =>
  infiniteQueryOptions({
    queryKey: conversationKeys.list(filters),
    queryFn: ({ pageParam, signal }) => searchConversations(filters, pageParam, PAGE_SIZE, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_page_id ?? undefined,
    refetchInterval: LIVE_MS,
  });

/** How many conversations match `filters`: exactly what the list pages through. */
export const conversationCountQuery = (filters: ConversationFilters) =>
  queryOptions({ queryKey: conversationKeys.count(filters), queryFn: ({ signal }) => countConversations(filters, signal) });

/** One conversation; an id the server does not know is a 404, as a page shows it. */
export const conversationQuery = (id: string) =>
  queryOptions({
    queryKey: conversationKeys.detail(id),
    queryFn: async ({ signal }) => {
      const [conversation] = await getConversations([id], signal);
      if (!conversation) throw new ApiError(t`Conversation ${id} not found`, 'http', 404);
      return conversation;
    },
    refetchInterval: LIVE_MS,
  });

/** The titles of the conversations `ids` (a conversation's parent and sub-conversations), by id; unknown ones are left out. */
export const conversationTitlesQuery = (ids: readonly string[]) =>
  queryOptions({
    queryKey: conversationKeys.titles(ids),
    queryFn: async ({ signal }) => {
      const found = await getConversations([...ids], signal);
      return new Map(found.flatMap((conversation) => (conversation ? [[conversation.id, conversation.title] as const] : [])));
    },
    enabled: ids.length > 0,
  });

/**
 * Start tasks this console follows through their start's stream (see `startConversationMutation`):
 * no poll asks for them while it lasts.
 */
const streamed = new Set<string>();
/** Polled every 2 s: a start task under way that no stream here follows (started elsewhere, or its stream broke). */
const POLL_MS = 2000;
const polled = (task: StartTask) => !isFinished(task) && !streamed.has(task.id);

/**
 * Start tasks since `since` that are not READY yet (the ones in ERROR stay, with their reason);
 * polled while any is under way and not followed by a stream.
 */
export const tasksInFlightQuery = (since: string) =>
  queryOptions({
    queryKey: conversationKeys.recentTasks(since),
    queryFn: async ({ signal }) => (await recentStartTasks(since, signal)).items.filter((task) => task.status !== 'READY'),
    refetchInterval: (query) => (query.state.data?.some(polled) ? POLL_MS : false),
  });

/** One start task, up to READY or ERROR: from its start's stream when this console started it, else polled. */
export const startTaskQuery = (id: string) =>
  queryOptions({
    queryKey: conversationKeys.task(id),
    queryFn: async ({ signal }) => (await getStartTasks([id], signal))[0] ?? null,
    // What a stream keeps here is as fresh as it gets, and a task that ended changes no more: a
    // page that starts following either reads nothing.
    staleTime: (query) => (query.state.data && !polled(query.state.data) ? Infinity : 0),
    refetchInterval: (query) => {
      const task = query.state.data;
      return (task ? polled(task) : !streamed.has(id)) ? POLL_MS : false;
    },
  });

/** A state of a start task into every cached copy: the task's own, and the lists of tasks under way. */
function storeTask(queryClient: QueryClient, task: StartTask) {
  queryClient.setQueryData(conversationKeys.task(task.id), task);
  queryClient.setQueriesData<StartTask[]>({ queryKey: [...conversationKeys.tasks(), 'recent'] }, (tasks) => {
    if (!tasks) return tasks;
    const others = tasks.filter((other) => other.id !== task.id);
    return task.status === 'READY' ? others : [task, ...others];
  });
}

/**
 * Follows a start's remaining states into the cache as the server sends them. A stream that ends
 * before READY or ERROR (the connection broke) hands the task back to polling.
 */
async function follow(queryClient: QueryClient, first: StartTask, states: AsyncGenerator<StartTask>) {
  let last = first;
  try {
    for await (const state of states) {
      last = state;
      storeTask(queryClient, state);
    }
  } catch {
    // Polling takes over below.
  } finally {
    streamed.delete(first.id);
    if (!isFinished(last)) void queryClient.invalidateQueries({ queryKey: conversationKeys.tasks() });
  }
}

/**
 * A start the server streams: its task's first state (what the mutation gives), then each later
 * one into the cache the moment the server writes it.
 */
async function startThroughStream(queryClient: QueryClient, states: AsyncGenerator<StartTask>): Promise<StartTask> {
  const first = await states.next();
  if (first.done) throw new ApiError(t`The server ended the start before it sent its start task`, 'invalid-response', 200);
  streamed.add(first.value.id);
  storeTask(queryClient, first.value);
  void follow(queryClient, first.value, states);
  return first.value;
}

/** Starts a conversation through the server's stream (`stream-start`). */
export const startConversationMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (request: StartRequestInput) => startThroughStream(queryClient, streamStartConversation(request)),
  });

/** The conversations each of `sandboxIds` serves, by sandbox id; asked only of a server that `offered` the route. */
export const conversationsBySandboxQuery = (sandboxIds: readonly string[], offered: boolean) =>
  queryOptions({
    queryKey: conversationKeys.bySandbox(sandboxIds),
    queryFn: async ({ signal }) =>
      new Map((await conversationsBySandbox(sandboxIds, signal)).map(({ sandbox_id, conversations }) => [sandbox_id, conversations])),
    enabled: offered && sandboxIds.length > 0,
    placeholderData: keepPreviousData,
  });

/** Going on in a new sandbox, through the server's stream: the start task that makes it (read it with `startTaskQuery`). */
export const continueInNewSandboxMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (id: string) => startThroughStream(queryClient, streamContinueInNewSandbox(id)),
    // Refused (a start of it is under way, from another tab say): the starts under way are read again.
    onError: () => queryClient.invalidateQueries({ queryKey: conversationKeys.tasks() }),
  });

type Pages = InfiniteData<AppConversationPage, string | undefined>;

/**
 * Every cached copy of conversation `id` (lists and detail) changed by `change`; `null` takes it
 * out of the lists, and so does an archived state the list does not show.
 */
function patchEverywhere(queryClient: QueryClient, id: string, change: (conversation: AppConversation) => AppConversation | null) {
  for (const [key, data] of queryClient.getQueriesData<Pages>({ queryKey: conversationKeys.lists() })) {
    if (!data) continue;
    const filters = (key[2] ?? {}) as ConversationFilters;
    const keep = (item: AppConversation) => {
      if (item.id !== id) return [item];
      const changed = change(item);
      return changed && changed.archived === Boolean(filters.archived) ? [changed] : [];
    };
    queryClient.setQueryData<Pages>(key, { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.flatMap(keep) })) });
  }
  queryClient.setQueryData<AppConversation>(conversationKeys.detail(id), (current) => (current ? (change(current) ?? current) : current));
}

/** What each cached copy of conversation `id` was, to put back. */
function snapshot(queryClient: QueryClient, id: string) {
  return [
    ...queryClient.getQueriesData<Pages>({ queryKey: conversationKeys.lists() }),
    [conversationKeys.detail(id), queryClient.getQueryData(conversationKeys.detail(id))] as const,
  ];
}

async function optimistically(queryClient: QueryClient, id: string, change: (conversation: AppConversation) => AppConversation | null) {
  await queryClient.cancelQueries({ queryKey: conversationKeys.all });
  const before = snapshot(queryClient, id);
  patchEverywhere(queryClient, id, change);
  return { before };
}

function rollBack(queryClient: QueryClient, context: { before: ReturnType<typeof snapshot> } | undefined) {
  for (const [key, data] of context?.before ?? []) queryClient.setQueryData(key, data);
}

export interface ConversationChange {
  id: string;
  title?: string;
  archived?: boolean;
}

/**
 * Renames or (un)archives a conversation: list and detail show it at once, and go back if the
 * server refuses. An archived conversation leaves the lists that hide archived ones.
 */
export const updateConversationMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: async ({ id, title, archived }: ConversationChange) => {
      if (title !== undefined) await renameConversation(id, title);
      return archived === undefined ? null : archiveConversation(id, archived);
    },
    onMutate: ({ id, ...changes }: ConversationChange) =>
      optimistically(queryClient, id, (conversation) => ({ ...conversation, ...changes })),
    onError: (_error, _variables, context) => rollBack(queryClient, context),
    onSuccess: (conversation) => {
      if (conversation) queryClient.setQueryData(conversationKeys.detail(conversation.id), conversation);
    },
    onSettled: (_result, _error, { id }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: conversationKeys.detail(id) }),
        queryClient.invalidateQueries({ queryKey: conversationKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: conversationKeys.counts() }),
      ]),
  });

/** Deletes a conversation: it leaves the lists at once and comes back if the server refuses. */
export const deleteConversationMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (id: string) => deleteConversation(id),
    onMutate: (id: string) => optimistically(queryClient, id, () => null),
    onError: (_error, _id, context) => rollBack(queryClient, context),
    onSuccess: (_result, id) => queryClient.removeQueries({ queryKey: conversationKeys.detail(id) }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: conversationKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: conversationKeys.counts() }),
        // Its sandbox goes with it when its start made it: the capacity line and the sandbox lists follow at once.
        queryClient.invalidateQueries({ queryKey: sandboxKeys.capacity() }),
        queryClient.invalidateQueries({ queryKey: sandboxKeys.lists() }),
      ]),
  });
