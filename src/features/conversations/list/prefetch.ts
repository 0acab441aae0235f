import type { QueryClient } from '@tanstack/react-query';
import { conversationCountQuery, conversationsQuery } from '../../../queries/conversations';
import { apiFiltersFrom, listFiltersFrom } from './list-filters';

/**
 * The list's first page and count, asked for while the page's code loads (see src/app/router.tsx).
 * A view of archived conversations waits for the page: whether the server archives is not known yet.
 */
export function prefetch(queryClient: QueryClient, url: URL): void {
  const filters = listFiltersFrom(url.searchParams);
  if (filters.archived) return;
  const { sort: _sort, ...countFilters } = apiFiltersFrom(filters, false);
  void queryClient.prefetchInfiniteQuery(conversationsQuery(apiFiltersFrom(filters, false)));
  void queryClient.prefetchQuery(conversationCountQuery(countFilters));
}
