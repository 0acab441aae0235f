import { t } from '@lingui/core/macro';
import * as z from 'zod/mini';
import {
  appConversationPageSchema,
  appConversationSchema,
  sandboxConversationsSchema,
  type ConversationSortOrder,
  type StartRequestInput,
  startTaskPageSchema,
  startTaskSchema,
} from '../contract/conversations';
import { apiRequest } from './client';
import { apiArrayStream } from './json-array-stream';
import { ApiError } from './errors';

export interface ConversationFilters {
  title?: string;
  /** ISO date-times. */
  createdFrom?: string;
  createdBefore?: string;
  sort?: ConversationSortOrder;
  archived?: boolean;
  sandboxId?: string;
  /** One user's (an admin's filter). */
  owner?: string;
}

/** The query string `/search` and `/count` share, so the count is of what search pages through. */
function filterQuery({ title, createdFrom, createdBefore, archived, sandboxId, owner }: ConversationFilters): URLSearchParams {
  const query = new URLSearchParams();
  if (title) query.set('title__contains', title);
  if (createdFrom) query.set('created_at__gte', createdFrom);
  if (createdBefore) query.set('created_at__lt', createdBefore);
  if (archived) query.set('archived', 'true');
  if (sandboxId) {
    query.set('sandbox_id__eq', sandboxId);
    // Every conversation the sandbox serves, as its row counts them: those a conversation started run in its sandbox too.
    query.set('include_sub_conversations', 'true');
  }
  if (owner) query.set('created_by_user_id__eq', owner);
  return query;
}

const BASE = '/api/v1/app-conversations';

export function searchConversations(filters: ConversationFilters, pageId: string | undefined, limit: number, signal?: AbortSignal) {
  const query = filterQuery(filters);
  query.set('limit', String(limit));
  if (filters.sort) query.set('sort_order', filters.sort);
  if (pageId) query.set('page_id', pageId);
  return apiRequest(`${BASE}/search?${query}`, { schema: appConversationPageSchema, signal });
}

export function countConversations(filters: ConversationFilters, signal?: AbortSignal) {
  return apiRequest(`${BASE}/count?${filterQuery(filters)}`, { schema: z.number(), signal });
}

export function getConversations(ids: string[], signal?: AbortSignal) {
  const query = new URLSearchParams(ids.map((id) => ['ids', id]));
  return apiRequest(`${BASE}?${query}`, { schema: z.array(z.nullable(appConversationSchema)), signal });
}

/** Starts a conversation: each state of its start task as the server reaches it, up to READY or ERROR. */
export function streamStartConversation(request: StartRequestInput, signal?: AbortSignal) {
  return apiArrayStream(`${BASE}/stream-start`, { method: 'POST', body: request, schema: startTaskSchema, signal });
}

/** Goes on with a conversation whose sandbox is gone or failed, in a new sandbox (ours): each state of the start task that does it. */
export function streamContinueInNewSandbox(id: string, signal?: AbortSignal) {
  return apiArrayStream(`${BASE}/${encodeURIComponent(id)}/continue-in-new-sandbox/stream`, {
    method: 'POST',
    schema: startTaskSchema,
    signal,
  });
}

export function getStartTasks(ids: string[], signal?: AbortSignal) {
  const query = new URLSearchParams(ids.map((id) => ['ids', id]));
  return apiRequest(`${BASE}/start-tasks?${query}`, { schema: z.array(z.nullable(startTaskSchema)), signal });
}

/** Start tasks created since `since` (ISO), newest first: the ones a list shows while they run. */
export function recentStartTasks(since: string, signal?: AbortSignal) {
  const query = new URLSearchParams({ created_at__gte: since, limit: '100' });
  return apiRequest(`${BASE}/start-tasks/search?${query}`, { schema: startTaskPageSchema, signal });
}

const conversationPath = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

/** OpenHands' legacy routes: its V1 API has no PATCH or DELETE at the pinned commit; ours has both kinds. */
const legacyPath = (id: string) => `/api/conversations/${encodeURIComponent(id)}`;

/** `false` from a legacy route: the server found nothing to change. */
function mustSucceed(done: boolean, refusal: () => string): void {
  if (!done) throw new ApiError(refusal(), 'http', 404);
}

/** Archives or unarchives (ours only: `PATCH /api/v1/app-conversations/{id}`). */
export function archiveConversation(id: string, archived: boolean) {
  return apiRequest(conversationPath(id), { method: 'PATCH', body: { archived }, schema: appConversationSchema });
}

/** Renames through the legacy route, which OpenHands and our server both have. */
export async function renameConversation(id: string, title: string): Promise<void> {
  mustSucceed(
    await apiRequest(legacyPath(id), { method: 'PATCH', body: { title }, schema: z.boolean() }),
    () => t`The server did not rename the conversation`,
  );
}

/** Deletes through the legacy route, which OpenHands and our server both have. */
export async function deleteConversation(id: string): Promise<void> {
  mustSucceed(
    await apiRequest(legacyPath(id), { method: 'DELETE', schema: z.boolean() }),
    () => t`The server did not delete the conversation`,
  );
}

/** The conversations each sandbox serves (ours), in the order of `sandboxIds`. */
export function conversationsBySandbox(sandboxIds: readonly string[], signal?: AbortSignal) {
  const query = new URLSearchParams(sandboxIds.map((id) => ['sandbox_id', id]));
  return apiRequest(`${BASE}/by-sandbox?${query}`, { schema: sandboxConversationsSchema, signal });
}
