import { useUrlParams } from '../../../components/use-url-params';
import type { ListFilters } from './conversations-view';
import { listFiltersFrom } from './list-filters';

/** Filters and sort live in the URL, so a view can be shared and survives a reload. */
export function useListFilters() {
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
