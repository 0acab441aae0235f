import * as z from 'zod/mini';

/*
 * A conversation's workspace: its git changes and diffs as the agent SDK's git routes report them,
 * and its files (a listing of ours, as the agent server's file routes give it).
 */

export const GIT_CHANGE_STATUSES = ['ADDED', 'DELETED', 'UPDATED', 'MOVED'] as const;

export const gitChangeSchema = z.object({
  status: z.enum(GIT_CHANGE_STATUSES),
  /** Relative to the repository's root. */
  path: z.string(),
});
export type GitChange = z.output<typeof gitChangeSchema>;

export const gitChangesSchema = z.array(gitChangeSchema);

/** A file's text where the work started from (`''`: it was not there) and now (`''`: it is gone). */
export const gitDiffSchema = z.object({ original: z.string(), modified: z.string() });
export type GitDiff = z.output<typeof gitDiffSchema>;

export const directoryEntrySchema = z.object({
  name: z.string(),
  /** A `link` is a symbolic link: listed, never followed. */
  type: z.enum(['file', 'directory', 'link', 'other']),
  /** Bytes, for a file. */
  size: z.nullable(z.number()),
  modified_at: z.string(),
  /** Where a link points, as it is written. */
  link_target: z.optional(z.nullable(z.string())),
});
export type DirectoryEntry = z.output<typeof directoryEntrySchema>;

export const directoryListingSchema = z.object({
  /** Absolute, as the sandbox sees it. */
  path: z.string(),
  entries: z.array(directoryEntrySchema),
  /** More entries than were listed. */
  truncated: z.boolean(),
});
export type DirectoryListing = z.output<typeof directoryListingSchema>;

/**
 * A path inside the workspace, relative to it (`''` is the workspace itself): no leading `/`, no
 * `..` segment, no NUL.
 */
export const workspacePathSchema = z.string().check(
  z.maxLength(4096),
  z.refine((value) => !value.startsWith('/') && !value.split('/').includes('..') && !value.includes('\0'), {
    message: 'A path inside the workspace, relative to it, without ..',
  }),
);

export const workspacePathQuerySchema = z.object({ path: z._default(workspacePathSchema, '') });
/** A file of the workspace: a path that names something. */
export const workspaceFileQuerySchema = z.object({ path: workspacePathSchema.check(z.minLength(1)) });
