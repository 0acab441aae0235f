import { queryOptions } from '@tanstack/react-query';
import { fetchOptions } from '../api/options';
import type { OptionKind } from '../contract/options';

export const optionKeys = {
  all: ['options'] as const,
  list: (kind: OptionKind) => [...optionKeys.all, kind] as const,
};

/** A server's choices do not change while it runs: read once per visit. */
export const optionsQuery = (kind: OptionKind) =>
  queryOptions({ queryKey: optionKeys.list(kind), queryFn: ({ signal }) => fetchOptions(kind, signal), staleTime: Infinity });
