import { sandboxSpecKeys } from './sandbox-spec-keys';
import { queryOptions } from '@tanstack/react-query';
import { searchSandboxSpecs } from '../api/sandboxes';

/** Specs change with the server's configuration, and on Docker with its labelled images and the Settings image: seldom. */
export const sandboxSpecsQuery = () =>
  queryOptions({ queryKey: sandboxSpecKeys.list(), queryFn: ({ signal }) => searchSandboxSpecs(signal), staleTime: 60_000 });
