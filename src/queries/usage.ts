import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { fetchLatestResources, fetchSandboxResources, fetchUsage } from '../api/usage';
import type { UsageQuery } from '../contract/usage';

export const usageKeys = {
  all: ['usage'] as const,
  range: (query: UsageQuery) => [...usageKeys.all, query] as const,
  resources: ['sandbox-resources'] as const,
};

/** How often what sandboxes use is read again (the server looks every few seconds). */
const RESOURCES_EVERY_MS = 5000;

/** Usage over a range; the previous range's figures stay while another loads. */
export const usageQuery = (query: UsageQuery) =>
  queryOptions({
    queryKey: usageKeys.range(query),
    queryFn: ({ signal }) => fetchUsage(query, signal),
    placeholderData: keepPreviousData,
  });

/** The last look at each of `ids`, read again while shown. */
export const latestResourcesQuery = (ids: string[]) =>
  queryOptions({
    queryKey: [...usageKeys.resources, 'latest', ids] as const,
    queryFn: ({ signal }) => fetchLatestResources(ids, signal),
    enabled: ids.length > 0,
    refetchInterval: RESOURCES_EVERY_MS,
    placeholderData: keepPreviousData,
  });

/** One sandbox's last hour, read again while shown. */
export const sandboxResourcesQuery = (id: string) =>
  queryOptions({
    queryKey: [...usageKeys.resources, 'one', id] as const,
    queryFn: ({ signal }) => fetchSandboxResources(id, signal),
    refetchInterval: RESOURCES_EVERY_MS,
  });
