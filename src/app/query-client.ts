import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '../api/errors';
import { expireSession } from '../api/session';

/** A 401 from anywhere means the key is no longer good: ask for it again. */
function expireOnUnauthorized(error: unknown): void {
  if (isApiError(error) && error.isUnauthorized) expireSession();
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: expireOnUnauthorized }),
    mutationCache: new MutationCache({ onError: expireOnUnauthorized }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // Retrying cannot fix a response the server gave on purpose (4xx) or a wrong shape.
        retry: (failures, error) => failures < 2 && isApiError(error) && (error.kind === 'network' || error.status >= 500),
      },
      mutations: { retry: false },
    },
  });
}
