import * as z from 'zod/mini';
import {
  type SandboxStatus,
  sandboxActionResultSchema,
  sandboxCapacitySchema,
  sandboxInfoSchema,
  sandboxLogsSchema,
  sandboxPageSchema,
  sandboxSpecPageSchema,
  startedSandboxSchema,
} from '../contract/sandboxes';
import { apiRequest } from './client';

export interface SandboxFilters {
  status?: SandboxStatus;
  specId?: string;
  /** One user's (an admin's filter). */
  owner?: string;
  pageId?: string;
  limit?: number;
}

export function searchSandboxes({ status, specId, owner, pageId, limit = 50 }: SandboxFilters, signal?: AbortSignal) {
  const query = new URLSearchParams({ limit: String(limit) });
  if (status) query.set('status__eq', status);
  if (specId) query.set('sandbox_spec_id__eq', specId);
  if (owner) query.set('created_by_user_id__eq', owner);
  if (pageId) query.set('page_id', pageId);
  return apiRequest(`/api/v1/sandboxes/search?${query}`, { schema: sandboxPageSchema, signal });
}

export function getSandboxes(ids: string[], signal?: AbortSignal) {
  const query = new URLSearchParams(ids.map((id) => ['id', id]));
  return apiRequest(`/api/v1/sandboxes?${query}`, { schema: z.array(z.nullable(sandboxInfoSchema)), signal });
}

/** Starts a sandbox; the response says which sandboxes were paused to make room. */
export function startSandbox(specId?: string) {
  const query = specId ? `?${new URLSearchParams({ sandbox_spec_id: specId })}` : '';
  return apiRequest(`/api/v1/sandboxes${query}`, { method: 'POST', schema: startedSandboxSchema });
}

const sandboxPath = (id: string) => `/api/v1/sandboxes/${encodeURIComponent(id)}`;

export function pauseSandbox(id: string) {
  return apiRequest(`${sandboxPath(id)}/pause`, { method: 'POST', body: {}, schema: sandboxActionResultSchema });
}

export function resumeSandbox(id: string) {
  return apiRequest(`${sandboxPath(id)}/resume`, { method: 'POST', body: {}, schema: sandboxActionResultSchema });
}

/**
 * The id goes in the path and in the query: OpenHands (at the pinned commit) reads it from the
 * query and responds to the path-only form with 422; our server takes either.
 */
export function deleteSandbox(id: string) {
  const query = new URLSearchParams({ sandbox_id: id });
  return apiRequest(`${sandboxPath(id)}?${query}`, { method: 'DELETE', schema: sandboxActionResultSchema });
}

export type SandboxAction = 'pause' | 'resume' | 'delete';

const ACTIONS: Record<SandboxAction, (id: string) => ReturnType<typeof pauseSandbox>> = {
  pause: pauseSandbox,
  resume: resumeSandbox,
  delete: deleteSandbox,
};

/** Pauses, resumes or deletes one sandbox. */
export function runSandboxAction(action: SandboxAction, id: string) {
  return ACTIONS[action](id);
}

export function sandboxLogs(id: string, tail: number, signal?: AbortSignal) {
  return apiRequest(`${sandboxPath(id)}/logs?tail=${tail}`, { schema: sandboxLogsSchema, signal });
}

/** How many sandboxes run and exist, against the caps (ours; a server without it responds 404). */
export function sandboxCapacity(signal?: AbortSignal) {
  return apiRequest('/api/v1/sandboxes/capacity', { schema: sandboxCapacitySchema, signal });
}

export function searchSandboxSpecs(signal?: AbortSignal) {
  return apiRequest('/api/v1/sandbox-specs/search?limit=100', { schema: sandboxSpecPageSchema, signal });
}
