import { useQuery, useQueryClient } from '@tanstack/react-query';
import { meQuery } from '../../../queries/me';
import { serverFeaturesQuery } from '../../../queries/server-capabilities';

/**
 * Who is signed in, to tell their own conversations and sandboxes from others' (what only an owner
 * may do to one): `userId` is `null` on a server without teams, where everything is the caller's;
 * `known` is false until that is known.
 */
export function useSignedInUser(): { known: boolean; userId: string | null } {
  const queryClient = useQueryClient();
  const team = useQuery(serverFeaturesQuery()).data?.team;
  const me = useQuery({ ...meQuery(queryClient), enabled: team === true }).data;
  if (team === undefined) return { known: false, userId: null };
  if (!team) return { known: true, userId: null };
  return { known: me !== undefined, userId: me?.user_id ?? null };
}
