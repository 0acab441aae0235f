import * as z from 'zod/mini';
import { browserSessionResultSchema } from '../contract/browser-session';
import {
  type AcceptInvitationBody,
  type ApiKeyCreate,
  apiKeySchema,
  createdApiKeySchema,
  invitationLinkSchema,
  type InvitationRequest,
  invitationResultSchema,
  renewedInvitationSchema,
  memberPageSchema,
  type MemberPatch,
  type PasswordChange,
  memberSchema,
} from '../contract/team';
import { type OrganizationDefaultsUpdate, organizationDefaultsSchema } from '../contract/organization-defaults';
import { messageSchema } from '../contract/errors';
import { apiRequest } from './client';

/*
 * The team (OpenHands' organisation routes, for the caller's current organisation) and the
 * caller's API keys. Password sign-in and invitations go to this console's own server: the
 * session cookie they set belongs to its origin.
 */

const OWN_SERVER = { apiKey: '', baseUrl: '' };

export function fetchMembers(orgId: string, query: { page: number; limit: number; email?: string }, signal?: AbortSignal) {
  const params = new URLSearchParams({ page_id: String(query.page), limit: String(query.limit) });
  if (query.email) params.set('email', query.email);
  return apiRequest(`/api/organizations/${encodeURIComponent(orgId)}/members?${params}`, { schema: memberPageSchema, signal });
}

export function inviteMembers(orgId: string, body: InvitationRequest) {
  return apiRequest(`/api/organizations/${encodeURIComponent(orgId)}/members/invite`, {
    method: 'POST',
    body,
    schema: invitationResultSchema,
  });
}

export function renewInvitation(orgId: string, userId: string) {
  return apiRequest(`/api/organizations/${encodeURIComponent(orgId)}/members/${encodeURIComponent(userId)}/invitation`, {
    method: 'POST',
    schema: renewedInvitationSchema,
  });
}

export function updateMember(orgId: string, userId: string, body: MemberPatch) {
  return apiRequest(`/api/organizations/${encodeURIComponent(orgId)}/members/${encodeURIComponent(userId)}`, {
    method: 'PATCH',
    body,
    schema: memberSchema,
  });
}

export function deleteMember(orgId: string, userId: string) {
  return apiRequest(`/api/organizations/${encodeURIComponent(orgId)}/members/${encodeURIComponent(userId)}`, {
    method: 'DELETE',
    schema: messageSchema,
  });
}

export function fetchOrganizationDefaults(orgId: string, signal?: AbortSignal) {
  return apiRequest(`/api/organizations/${encodeURIComponent(orgId)}/settings`, { schema: organizationDefaultsSchema, signal });
}

export function updateOrganizationDefaults(orgId: string, body: OrganizationDefaultsUpdate) {
  return apiRequest(`/api/organizations/${encodeURIComponent(orgId)}/settings`, {
    method: 'PATCH',
    body,
    schema: organizationDefaultsSchema,
  });
}

export function fetchApiKeys(signal?: AbortSignal) {
  return apiRequest('/api/keys', { schema: z.array(apiKeySchema), signal });
}

export function createApiKey(body: ApiKeyCreate) {
  return apiRequest('/api/keys', { method: 'POST', body, schema: createdApiKeySchema });
}

export function deleteApiKey(id: number) {
  return apiRequest(`/api/keys/${id}`, { method: 'DELETE', schema: messageSchema });
}

/** Changes the signed-in user's password; the server ends their other sessions and renews this browser's. */
export function changePassword(body: PasswordChange) {
  return apiRequest('/change-password', { method: 'POST', body, schema: browserSessionResultSchema });
}

/** Who an invitation link's token invites (the email they join as); a link that no longer works is a 404. */
export function invitationOfLink(token: string, signal?: AbortSignal) {
  return apiRequest('/invitation', { method: 'POST', body: { token }, schema: invitationLinkSchema, session: OWN_SERVER, signal });
}

/** Sets the invited person's password; the server signs this browser in as them. */
export function acceptInvitation(body: AcceptInvitationBody) {
  return apiRequest('/accept-invitation', { method: 'POST', body, schema: browserSessionResultSchema, session: OWN_SERVER });
}
