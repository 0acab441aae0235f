import { queryOptions } from '@tanstack/react-query';
import { searchSandboxSpecs } from '../api/sandboxes';

export const sandboxSpecKeys = {
  all: ['sandbox-specs'] as const,
  lists: () => [...sandboxSpecKeys.all, 'list'] as const,
  list: () => [...sandboxSpecKeys.lists()] as const,
};

/** Specs change with the server's configuration, and on Docker with its labelled images and the Settings image: seldom. */
export const sandboxSpecsQuery = () =>
  queryOptions({ queryKey: sandboxSpecKeys.list(), queryFn: ({ signal }) => searchSandboxSpecs(signal), staleTime: 60_000 });
