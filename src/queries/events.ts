import { queryOptions } from '@tanstack/react-query';
import { countEvents, type EventFilters } from '../api/events';

export const eventKeys = {
  all: ['events'] as const,
  conversation: (conversationId: string) => [...eventKeys.all, conversationId] as const,
  count: (filters: EventFilters) => [...eventKeys.conversation(filters.conversationId), 'count', filters] as const,
};

/** How many stored events match; always read fresh (a conversation's events only grow). */
export const eventCountQuery = (filters: EventFilters) =>
  queryOptions({ queryKey: eventKeys.count(filters), queryFn: ({ signal }) => countEvents(filters, signal), staleTime: 0 });
