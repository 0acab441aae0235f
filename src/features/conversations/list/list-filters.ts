import type { ConversationFilters } from '../../../api/conversations';
import { CONVERSATION_SORT_ORDERS, type ConversationSortOrder } from '../../../contract/conversations';
import type { ListFilters } from './conversations-view';

const isSort = (value: string | null): value is ConversationSortOrder => CONVERSATION_SORT_ORDERS.includes(value as ConversationSortOrder);

/** `yyyy-mm-dd` (local) as the ISO moment it starts; `days` later for the end of a range. */
const startOfDay = (date: string, days = 0) => {
  if (!date) return undefined;
  // eslint-disable-next-line lingui/no-unlocalized-strings -- an ISO date-time, not words
  const moment = new Date(`${date}T00:00:00`);
  moment.setDate(moment.getDate() + days);
  return Number.isNaN(moment.getTime()) ? undefined : moment.toISOString();
};

/** The list's filters and sort as the URL's search parameters hold them. */
export function listFiltersFrom(params: URLSearchParams): ListFilters {
  const sort = params.get('sort');
  return {
    title: params.get('q') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    sort: isSort(sort) ? sort : 'CREATED_AT_DESC',
    archived: params.get('archived') === 'true',
    owner: params.get('owner') ?? '',
    sandbox: params.get('sandbox') ?? '',
  };
}

/** What the list asks the server for. */
export const apiFiltersFrom = (filters: ListFilters, canArchive: boolean): ConversationFilters => ({
  title: filters.title || undefined,
  createdFrom: startOfDay(filters.from),
  createdBefore: startOfDay(filters.to, 1),
  sort: filters.sort,
  // `archived=true` in a URL means nothing to a server that cannot archive (OpenHands).
  archived: filters.archived && canArchive,
  owner: filters.owner || undefined,
  sandboxId: filters.sandbox || undefined,
});
