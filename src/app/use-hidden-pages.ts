import { useQuery, useQueryClient } from '@tanstack/react-query';
import { isAdminRole } from '../contract/roles';
import { serverFeaturesQuery } from '../queries/server-capabilities';
import { meQuery } from '../queries/me';
import { type PageName, PAGES } from './pages';

/** Pages only the team's owner and admins have a use for. */
const ADMIN_PAGES: readonly PageName[] = ['users', 'teamDefaults', 'audit'];

/**
 * The pages the signed-in user has no use for here: Users, Team defaults and the Audit log for members (and until the server says
 * who they are), and pages the server does not offer (an OpenHands without teams or API keys; until it says).
 */
export function useHiddenPages(): ReadonlySet<PageName> {
  const queryClient = useQueryClient();
  const features = useQuery(serverFeaturesQuery()).data;
  const me = useQuery({ ...meQuery(queryClient), enabled: features?.team === true }).data;
  const hidden = new Set<PageName>();
  if (!features?.team || !me || !isAdminRole(me.role)) for (const page of ADMIN_PAGES) hidden.add(page);
  if (!features?.apiKeys) hidden.add('apiKeys');
  if (!features?.usage) hidden.add('usage');
  return hidden;
}

/**
 * The admin page at `pathname` when the signed-in user is known to be a member: it says it is not
 * for their role, instead of a frame whose every request is refused.
 */
export function useRefusedPage(pathname: string): PageName | undefined {
  const queryClient = useQueryClient();
  const features = useQuery(serverFeaturesQuery()).data;
  const me = useQuery({ ...meQuery(queryClient), enabled: features?.team === true }).data;
  if (!features?.team || !me || isAdminRole(me.role)) return undefined;
  return ADMIN_PAGES.find((name) => PAGES[name].path === pathname.replace(/\/+$/, ''));
}
