import { queryOptions } from '@tanstack/react-query';
import { searchSandboxSpecs } from '../api/sandboxes';

export const sandboxSpecKeys = {
  all: ['sandbox-specs'] as const,
  lists: () => [...sandboxSpecKeys.all, 'list'] as const,
  list: () => [...sandboxSpecKeys.lists()] as const,
};

/** Specs change only when the server is reconfigured. */
export const sandboxSpecsQuery = () =>
  queryOptions({ queryKey: sandboxSpecKeys.list(), queryFn: ({ signal }) => searchSandboxSpecs(signal), staleTime: 60_000 });
