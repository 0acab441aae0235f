import { keepPreviousData, useMutation, useMutationState, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  deleteSandbox,
  pauseSandbox,
  resumeSandbox,
  type SandboxFilters,
  sandboxesQueryKey,
  sandboxLogs,
  searchSandboxes,
  searchSandboxSpecs,
  startSandbox,
} from '../../api/sandboxes';
import type { SandboxInfo, SandboxPage } from '../../contract/sandboxes';
import { type SandboxAction, pollInterval } from './actions';

export const sandboxKeys = {
  all: sandboxesQueryKey,
  lists: () => [...sandboxKeys.all, 'search'] as const,
  list: (filters: SandboxFilters) => [...sandboxKeys.lists(), filters] as const,
  logs: (id: string) => [...sandboxKeys.all, 'logs', id] as const,
  specs: () => ['sandbox-specs'] as const,
};

const actionKey = ['sandbox-action'] as const;

/** Actions under way, for "Pausing…" badges; straight from the mutation cache, so nothing to keep in sync. */
export function useActionsInFlight(): Map<string, SandboxAction> {
  const pending = useMutationState({
    filters: { mutationKey: actionKey, status: 'pending' },
    select: (mutation) => mutation.state.variables as { action: SandboxAction; id: string },
  });
  return new Map(pending.map(({ id, action }) => [id, action]));
}

/** One page of sandboxes; polled every 2 s while anything changes, every 30 s otherwise (not while the tab is hidden). */
export function useSandboxes(filters: SandboxFilters, anythingInFlight: boolean) {
  return useQuery({
    queryKey: sandboxKeys.list(filters),
    queryFn: ({ signal }) => searchSandboxes(filters, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => pollInterval(query.state.data?.items, anythingInFlight),
  });
}

export function useSandboxSpecs() {
  return useQuery({ queryKey: sandboxKeys.specs(), queryFn: ({ signal }) => searchSandboxSpecs(signal), staleTime: 60_000 });
}

export function useStartSandbox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (specId: string | undefined) => startSandbox(specId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sandboxKeys.lists() }),
  });
}

const CALLS: Record<SandboxAction, (id: string) => ReturnType<typeof pauseSandbox>> = {
  pause: pauseSandbox,
  resume: resumeSandbox,
  delete: deleteSandbox,
};

/** What the list shows at once, before the server confirms: paused, or starting again. */
const OPTIMISTIC: Partial<Record<SandboxAction, SandboxInfo['status']>> = { pause: 'PAUSED', resume: 'STARTING' };

/**
 * Pause, resume or delete one sandbox. Pause and resume show their outcome at once and roll back
 * if the server refuses; a delete takes the row away only once it is done.
 */
export function useSandboxAction() {
  const queryClient = useQueryClient();
  const patchLists = (update: (page: SandboxPage) => SandboxPage) =>
    queryClient.setQueriesData<SandboxPage>({ queryKey: sandboxKeys.lists() }, (page) => page && update(page));
  return useMutation({
    mutationKey: actionKey,
    mutationFn: ({ action, id }: { action: SandboxAction; id: string }) => CALLS[action](id),
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
    onSettled: () => queryClient.invalidateQueries({ queryKey: sandboxKeys.lists() }),
  });
}

export function useSandboxLogs(id: string) {
  return useQuery({ queryKey: sandboxKeys.logs(id), queryFn: ({ signal }) => sandboxLogs(id, 500, signal), staleTime: 0 });
}
