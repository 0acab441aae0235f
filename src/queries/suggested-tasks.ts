import { queryOptions } from '@tanstack/react-query';
import { estimateSolvability, fetchSuggestedTasks } from '../api/suggested-tasks';
import type { SolvabilityRequestInput } from '../contract/suggested-tasks';

export const suggestedTaskKeys = {
  all: ['suggested-tasks'] as const,
  list: () => [...suggestedTaskKeys.all, 'list'] as const,
  solvability: (request: SolvabilityRequestInput) => [...suggestedTaskKeys.all, 'solvability', request] as const,
};

/** Asking the providers takes a few requests each: the list is read again after five minutes, not on every visit. */
const SUGGESTIONS_STALE_MS = 5 * 60 * 1000;

export const suggestedTasksQuery = () =>
  queryOptions({
    queryKey: suggestedTaskKeys.list(),
    queryFn: ({ signal }) => fetchSuggestedTasks(signal),
    staleTime: SUGGESTIONS_STALE_MS,
  });

/**
 * An issue's solvability estimate. Each one costs a call to the user's LLM: it is asked once per
 * issue and page load, never again in the background, and not retried when it fails.
 */
export const solvabilityQuery = (request: SolvabilityRequestInput) =>
  queryOptions({
    queryKey: suggestedTaskKeys.solvability(request),
    queryFn: ({ signal }) => estimateSolvability(request, signal),
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
  });
