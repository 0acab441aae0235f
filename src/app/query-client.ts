import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '../api/errors';
import { signOut } from '../api/session';

/** A 401 from anywhere means the key is no longer good: back to the sign-in screen. */
function signOutOnUnauthorized(error: unknown): void {
  if (isApiError(error) && error.isUnauthorized) signOut();
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: signOutOnUnauthorized }),
    mutationCache: new MutationCache({ onError: signOutOnUnauthorized }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // Retrying cannot fix an answer the server gave on purpose (4xx) or a wrong shape.
        retry: (failures, error) => failures < 2 && isApiError(error) && (error.kind === 'network' || error.status >= 500),
      },
      mutations: { retry: false },
    },
  });
}
