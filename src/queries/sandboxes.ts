import { keepPreviousData, mutationOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import {
  runSandboxAction,
  sandboxCapacity,
  type SandboxAction,
  type SandboxFilters,
  sandboxLogs,
  searchSandboxes,
  startSandbox,
} from '../api/sandboxes';
import type { SandboxInfo, SandboxPage } from '../contract/sandboxes';

export const sandboxKeys = {
  all: ['sandboxes'] as const,
  lists: () => [...sandboxKeys.all, 'list'] as const,
  list: (filters: SandboxFilters) => [...sandboxKeys.lists(), filters] as const,
  details: () => [...sandboxKeys.all, 'detail'] as const,
  detail: (id: string) => [...sandboxKeys.details(), id] as const,
  logs: (id: string) => [...sandboxKeys.detail(id), 'logs'] as const,
  capacity: () => [...sandboxKeys.all, 'capacity'] as const,
  /** The key of every pause, resume and delete, so the page can show what is under way. */
  actions: () => [...sandboxKeys.all, 'action'] as const,
};

/** How often to ask for fresh statuses: fast while anything is changing, slowly otherwise. */
export function pollInterval(sandboxes: readonly SandboxInfo[] | undefined, anythingInFlight: boolean): number {
  return anythingInFlight || sandboxes?.some((sandbox) => sandbox.status === 'STARTING') ? 2000 : 30_000;
}

/** The sandboxes of `page` that match `filters`, for a server that ignores them (OpenHands). */
export function matchingSandboxes(page: SandboxPage, { status, specId, owner }: SandboxFilters): SandboxPage {
  const items = page.items.filter(
    (sandbox) =>
      (!status || sandbox.status === status) &&
      (!specId || sandbox.sandbox_spec_id === specId) &&
      (!owner || sandbox.created_by_user_id === owner),
  );
  return { ...page, items };
}

/**
 * One page of sandboxes; polled every 2 s while anything changes, every 30 s otherwise (not while
 * the tab is hidden). `filterOnClient`: the server ignores the filters, so they apply to the page here.
 */
export const sandboxesQuery = (filters: SandboxFilters, anythingInFlight: boolean, filterOnClient = false) =>
  queryOptions({
    queryKey: sandboxKeys.list(filters),
    queryFn: ({ signal }) => searchSandboxes(filters, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => pollInterval(query.state.data?.items, anythingInFlight),
    select: filterOnClient ? (page: SandboxPage) => matchingSandboxes(page, filters) : undefined,
  });

/**
 * How many run and exist against the caps; read again now and then, as sandboxes start and stop
 * elsewhere too. Asked only of a server that `offered` the route (OpenHands has none).
 */
export const sandboxCapacityQuery = (offered: boolean) =>
  queryOptions({
    queryKey: sandboxKeys.capacity(),
    queryFn: ({ signal }) => sandboxCapacity(signal),
    enabled: offered,
    refetchInterval: 10_000,
    retry: false,
  });

/** The end of a sandbox's output; always read fresh when shown, and again every 2 s while shown, to follow it. */
export const sandboxLogsQuery = (id: string) =>
  queryOptions({
    queryKey: sandboxKeys.logs(id),
    queryFn: ({ signal }) => sandboxLogs(id, 500, signal),
    staleTime: 0,
    refetchInterval: 2000,
  });

/** After a start, pause, resume or delete: the lists, and the counts against the caps. */
const refreshSandboxes = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: sandboxKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: sandboxKeys.capacity() }),
  ]);

export const startSandboxMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (specId: string | undefined) => startSandbox(specId),
    onSettled: () => refreshSandboxes(queryClient),
  });

export interface SandboxActionVariables {
  action: SandboxAction;
  id: string;
}

/** What the list shows at once, before the server confirms: paused, or starting again. */
const OPTIMISTIC: Partial<Record<SandboxAction, SandboxInfo['status']>> = { pause: 'PAUSED', resume: 'STARTING' };

/**
 * Pause, resume or delete one sandbox. Pause and resume show their outcome at once and roll back
 * if the server refuses; a delete takes the row away only once it is done.
 */
export const sandboxActionMutation = (queryClient: QueryClient) => {
  const patchLists = (update: (page: SandboxPage) => SandboxPage) =>
    queryClient.setQueriesData<SandboxPage>({ queryKey: sandboxKeys.lists() }, (page) => page && update(page));
  return mutationOptions({
    mutationKey: sandboxKeys.actions(),
    mutationFn: ({ action, id }: SandboxActionVariables) => runSandboxAction(action, id),
    onMutate: async ({ action, id }) => {
      await queryClient.cancelQueries({ queryKey: sandboxKeys.lists() });
      const before = queryClient
        .getQueriesData<SandboxPage>({ queryKey: sandboxKeys.lists() })
        .flatMap(([, page]) => page?.items ?? [])
        .find((s) => s.id === id);
      const status = OPTIMISTIC[action];
      if (status) {
        patchLists((page) => ({
          ...page,
          items: page.items.map((s) => (s.id === id ? { ...s, status, session_api_key: null, exposed_urls: null } : s)),
        }));
      }
      return { before };
    },
    onSuccess: (_result, { action, id }) => {
      if (action === 'delete') patchLists((page) => ({ ...page, items: page.items.filter((s) => s.id !== id) }));
    },
    onError: (_error, { id }, context) => {
      // Only this sandbox goes back: other rows may be mid-action themselves.
      const before = context?.before;
      if (before) patchLists((page) => ({ ...page, items: page.items.map((s) => (s.id === id ? before : s)) }));
    },
    onSettled: () => refreshSandboxes(queryClient),
  });
};
