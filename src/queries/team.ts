import { mutationOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import {
  createApiKey,
  deleteApiKey,
  deleteMember,
  fetchApiKeys,
  fetchMembers,
  fetchOrganizationDefaults,
  inviteMembers,
  renewInvitation,
  updateMember,
  updateOrganizationDefaults,
} from '../api/team';
import type { OrganizationDefaultsUpdate } from '../contract/organization-defaults';
import type { ApiKeyCreate, InvitationRequest, MemberPatch, Owner } from '../contract/team';
import { isAdminRole } from '../contract/roles';
import { serverFeaturesQuery } from './server-capabilities';
import { settingsKeys } from './settings';
import { currentOrgQuery } from './me';
import { fetchMe } from '../api/me';

export const teamKeys = {
  all: ['team'] as const,
  members: () => [...teamKeys.all, 'members'] as const,
  memberPage: (page: number, limit: number, email: string) => [...teamKeys.members(), { page, limit, email }] as const,
};

/** The team's defaults: what every user's settings fall back to. */
export const organizationDefaultsQuery = (queryClient: QueryClient) =>
  queryOptions({
    queryKey: [...teamKeys.all, 'defaults'] as const,
    queryFn: async ({ signal }) => fetchOrganizationDefaults(await queryClient.fetchQuery(currentOrgQuery()), signal),
  });

export const updateOrganizationDefaultsMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: async (update: OrganizationDefaultsUpdate) => updateOrganizationDefaults(await orgId(queryClient), update),
    onSuccess: (defaults) => queryClient.setQueryData([...teamKeys.all, 'defaults'], defaults),
    // Each user's settings show what they inherit.
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.all }),
  });

export const apiKeyKeys = { all: ['api-keys'] as const, list: () => [...apiKeyKeys.all, 'list'] as const };

export const membersQuery = (queryClient: QueryClient, page: number, limit: number, email: string) =>
  queryOptions({
    queryKey: teamKeys.memberPage(page, limit, email),
    queryFn: async ({ signal }) => fetchMembers(await queryClient.fetchQuery(currentOrgQuery()), { page, limit, email }, signal),
  });

/** As many users as one page of the team holds: the owner filter lists them. */
const OWNERS_LIMIT = 100;

/**
 * The team, for an admin's lists (an owner column and filter); `null` for a member, who sees only
 * their own, and on a server without teams.
 */
export const ownersQuery = (queryClient: QueryClient) =>
  queryOptions({
    queryKey: [...teamKeys.members(), 'owners'] as const,
    queryFn: async ({ signal }): Promise<Owner[] | null> => {
      if (!(await queryClient.fetchQuery(serverFeaturesQuery())).team) return null;
      const orgId = await queryClient.fetchQuery(currentOrgQuery());
      if (!isAdminRole((await fetchMe(orgId, signal)).role)) return null;
      const page = await fetchMembers(orgId, { page: 0, limit: OWNERS_LIMIT }, signal);
      return page.items.map((member) => ({ id: member.user_id, name: member.name || member.email || member.user_id }));
    },
    staleTime: 60_000,
  });

const orgId = (queryClient: QueryClient) => queryClient.fetchQuery(currentOrgQuery());
const refreshMembers = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: teamKeys.members() });

export const inviteMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: async (request: InvitationRequest) => inviteMembers(await orgId(queryClient), request),
    onSettled: () => refreshMembers(queryClient),
  });

export const renewInvitationMutation = (queryClient: QueryClient) =>
  mutationOptions({ mutationFn: async (userId: string) => renewInvitation(await orgId(queryClient), userId) });

export const updateMemberMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: async ({ userId, patch }: { userId: string; patch: MemberPatch }) => updateMember(await orgId(queryClient), userId, patch),
    onSettled: () => refreshMembers(queryClient),
  });

export const deleteMemberMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: async (userId: string) => deleteMember(await orgId(queryClient), userId),
    onSettled: () => refreshMembers(queryClient),
  });

export const apiKeysQuery = () => queryOptions({ queryKey: apiKeyKeys.list(), queryFn: ({ signal }) => fetchApiKeys(signal) });

export const createApiKeyMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (request: ApiKeyCreate) => createApiKey(request),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });

export const deleteApiKeyMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (id: number) => deleteApiKey(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
