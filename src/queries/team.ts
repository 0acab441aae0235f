import { mutationOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import {
  createApiKey,
  deleteApiKey,
  deleteMember,
  fetchApiKeys,
  fetchCurrentOrgId,
  fetchMe,
  fetchMembers,
  inviteMembers,
  renewInvitation,
  updateMember,
} from '../api/team';
import type { ApiKeyCreate, InvitationRequest, MemberPatch } from '../contract/team';

export const teamKeys = {
  all: ['team'] as const,
  org: () => [...teamKeys.all, 'org'] as const,
  me: () => [...teamKeys.all, 'me'] as const,
  members: () => [...teamKeys.all, 'members'] as const,
  memberPage: (page: number, limit: number, email: string) => [...teamKeys.members(), { page, limit, email }] as const,
};

export const apiKeyKeys = { all: ['api-keys'] as const, list: () => [...apiKeyKeys.all, 'list'] as const };

/** The caller's organisation: it does not change while signed in. */
export const currentOrgQuery = () =>
  queryOptions({ queryKey: teamKeys.org(), queryFn: ({ signal }) => fetchCurrentOrgId(signal), staleTime: Infinity });

/** Who is signed in, and their role. */
export const meQuery = (queryClient: QueryClient) =>
  queryOptions({
    queryKey: teamKeys.me(),
    queryFn: async ({ signal }) => fetchMe(await queryClient.fetchQuery(currentOrgQuery()), signal),
    staleTime: 60_000,
  });

export const membersQuery = (queryClient: QueryClient, page: number, limit: number, email: string) =>
  queryOptions({
    queryKey: teamKeys.memberPage(page, limit, email),
    queryFn: async ({ signal }) => fetchMembers(await queryClient.fetchQuery(currentOrgQuery()), { page, limit, email }, signal),
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
