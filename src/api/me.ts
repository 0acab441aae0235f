import { callerSchema, organizationPageSchema } from '../contract/caller';
import { apiRequest } from './client';

/** The organisation the caller works in (the server's one team on ours). */
export async function fetchCurrentOrgId(signal?: AbortSignal): Promise<string> {
  const page = await apiRequest('/api/organizations', { schema: organizationPageSchema, signal });
  const id = page.current_org_id ?? page.items[0]?.id;
  if (!id) throw new Error('The server names no organisation for this user');
  return id;
}

export function fetchMe(orgId: string, signal?: AbortSignal) {
  return apiRequest(`/api/organizations/${encodeURIComponent(orgId)}/me`, { schema: callerSchema, signal });
}
