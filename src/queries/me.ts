import { type QueryClient, queryOptions } from '@tanstack/react-query';

/** The requests and their schemas, loaded when first asked: the shell asks, and it is part of every page's first download. */
const api = () => import('../api/me');

/** Who is signed in: the shell asks (which pages they have), so apart from the team's other queries. */
export const meKeys = {
  all: ['me'] as const,
  org: () => [...meKeys.all, 'org'] as const,
  me: () => [...meKeys.all, 'caller'] as const,
};

/** The caller's organisation: it does not change while signed in. */
export const currentOrgQuery = () =>
  queryOptions({ queryKey: meKeys.org(), queryFn: async ({ signal }) => (await api()).fetchCurrentOrgId(signal), staleTime: Infinity });

/** Who is signed in, and their role. */
export const meQuery = (queryClient: QueryClient) =>
  queryOptions({
    queryKey: meKeys.me(),
    queryFn: async ({ signal }) => (await api()).fetchMe(await queryClient.fetchQuery(currentOrgQuery()), signal),
    staleTime: 60_000,
  });
