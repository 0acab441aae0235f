import { directoryListingSchema, gitChangesSchema, gitDiffSchema } from '../contract/workspace';
import { apiDownload, apiRequest } from './client';

/** A conversation's workspace, read through its sandbox's agent server (routes of ours). */
const base = (conversationId: string) => `/api/v1/app-conversations/${encodeURIComponent(conversationId)}/workspace`;

export function workspaceChanges(conversationId: string, signal?: AbortSignal) {
  return apiRequest(`${base(conversationId)}/changes`, { schema: gitChangesSchema, signal });
}

export function workspaceDiff(conversationId: string, path: string, signal?: AbortSignal) {
  return apiRequest(`${base(conversationId)}/diff?${new URLSearchParams({ path })}`, { schema: gitDiffSchema, signal });
}

/** A directory's entries; `path` relative to the workspace, `''` for its own. */
export function workspaceFiles(conversationId: string, path: string, signal?: AbortSignal) {
  return apiRequest(`${base(conversationId)}/files?${new URLSearchParams({ path })}`, { schema: directoryListingSchema, signal });
}

export function downloadWorkspaceFile(conversationId: string, path: string, signal?: AbortSignal) {
  return apiDownload(`${base(conversationId)}/file?${new URLSearchParams({ path })}`, path.split('/').at(-1) ?? 'file', signal);
}

export function downloadWorkspaceArchive(conversationId: string) {
  return apiDownload(`${base(conversationId)}/archive`, 'workspace.tar.gz');
}
