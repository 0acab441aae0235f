import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { conversationCountQuery, conversationsQuery } from '../../../queries/conversations';
import type { ListFilters } from './conversations-view';
import { apiFiltersFrom } from './list-filters';

/**
 * The conversations matching `filters`, a page at a time, and how many match; the loaded pages
 * are read again now and then (`conversationsQuery`), for statuses that change behind the list's back.
 */
export function useConversationList(filters: ListFilters, canArchive: boolean) {
  const apiFilters = apiFiltersFrom(filters, canArchive);
  const list = useInfiniteQuery(conversationsQuery(apiFilters));
  const { sort: _sort, ...countFilters } = apiFilters;
  const count = useQuery(conversationCountQuery(countFilters));
  const items = useMemo(() => list.data?.pages.flatMap((page) => page.items), [list.data]);
  return {
    items,
    error: list.error,
    retry: () => void list.refetch(),
    count: count.data,
    hasMore: list.hasNextPage,
    loadingMore: list.isFetchingNextPage,
    loadMore: () => void list.fetchNextPage(),
  };
}
