import { queryOptions } from '@tanstack/react-query';
import { downloadWorkspaceFile, workspaceChanges, workspaceDiff, workspaceFiles } from '../api/workspace';

export const workspaceKeys = {
  all: (conversationId: string) => ['workspace', conversationId] as const,
  changes: (conversationId: string) => [...workspaceKeys.all(conversationId), 'changes'] as const,
  diff: (conversationId: string, path: string) => [...workspaceKeys.all(conversationId), 'diff', path] as const,
  files: (conversationId: string, path: string) => [...workspaceKeys.all(conversationId), 'files', path] as const,
  file: (conversationId: string, path: string) => [...workspaceKeys.all(conversationId), 'file', path] as const,
};

/** The agent changes files as it works: what is shown is read again now and then while in view. */
const LIVE_MS = 5000;

export const workspaceChangesQuery = (conversationId: string) =>
  queryOptions({
    queryKey: workspaceKeys.changes(conversationId),
    queryFn: ({ signal }) => workspaceChanges(conversationId, signal),
    refetchInterval: LIVE_MS,
    retry: false,
  });

export const workspaceDiffQuery = (conversationId: string, path: string) =>
  queryOptions({
    queryKey: workspaceKeys.diff(conversationId, path),
    queryFn: ({ signal }) => workspaceDiff(conversationId, path, signal),
    refetchInterval: LIVE_MS,
    retry: false,
  });

export const workspaceFilesQuery = (conversationId: string, path: string) =>
  queryOptions({
    queryKey: workspaceKeys.files(conversationId, path),
    queryFn: ({ signal }) => workspaceFiles(conversationId, path, signal),
    refetchInterval: LIVE_MS,
    retry: false,
  });

/** A file shown on the page: its text, unless it is too large to show or not text. */
export type WorkspaceFileContent = { kind: 'text'; text: string } | { kind: 'too-large' | 'binary'; size: number };

/** Larger files are offered for download instead of being shown (and not read to be shown). */
export const MAX_SHOWN_BYTES = 512 * 1024;

export const workspaceFileQuery = (conversationId: string, path: string) =>
  queryOptions({
    queryKey: workspaceKeys.file(conversationId, path),
    queryFn: async ({ signal }): Promise<WorkspaceFileContent> => {
      const { blob } = await downloadWorkspaceFile(conversationId, path, signal);
      if (blob.size > MAX_SHOWN_BYTES) return { kind: 'too-large', size: blob.size };
      const text = await blob.text();
      // A NUL is what text never holds.
      return text.includes('\0') ? { kind: 'binary', size: blob.size } : { kind: 'text', text };
    },
    retry: false,
  });
