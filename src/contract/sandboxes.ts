import * as z from 'zod/mini';
import { integer } from './rules';

/*
 * Sandboxes and sandbox specs (`/api/v1/sandboxes`, `/api/v1/sandbox-specs`), as OpenHands
 * returns them, plus our extensions: `status_detail` (why a sandbox is in ERROR),
 * `paused_sandbox_ids` (which sandboxes a start or resume paused to stay under the cap), a spec's
 * `image` and the capacity's `runtime`.
 */

export const SANDBOX_STATUSES = ['STARTING', 'RUNNING', 'PAUSED', 'ERROR', 'MISSING'] as const;
export const sandboxStatusSchema = z.enum(SANDBOX_STATUSES);
export type SandboxStatus = (typeof SANDBOX_STATUSES)[number];

export const exposedUrlSchema = z.object({ name: z.string(), url: z.string(), port: z.optional(integer()) });

export const sandboxInfoSchema = z.object({
  id: z.string(),
  created_by_user_id: z._default(z.nullable(z.string()), null),
  sandbox_spec_id: z.string(),
  status: sandboxStatusSchema,
  /** Only while RUNNING: the key the sandbox's agent server takes. */
  session_api_key: z._default(z.nullable(z.string()), null),
  exposed_urls: z._default(z.nullable(z.array(exposedUrlSchema)), null),
  created_at: z.string(),
  /** Ours: why the sandbox is in ERROR (or MISSING), in words. */
  status_detail: z.optional(z.nullable(z.string())),
});
export type SandboxInfo = z.output<typeof sandboxInfoSchema>;

/** `POST /api/v1/sandboxes`: the new sandbox, and which sandboxes were paused to make room. */
export const startedSandboxSchema = z.extend(sandboxInfoSchema, { paused_sandbox_ids: z.optional(z.array(z.string())) });

export const sandboxPageSchema = z.object({ items: z.array(sandboxInfoSchema), next_page_id: z._default(z.nullable(z.string()), null) });
export type SandboxPage = z.output<typeof sandboxPageSchema>;

/** `{"success": true}` of pause, resume and delete; resume also says which sandboxes it paused. */
export const sandboxActionResultSchema = z.object({ success: z.boolean(), paused_sandbox_ids: z.optional(z.array(z.string())) });
export type SandboxActionResult = z.output<typeof sandboxActionResultSchema>;

export const sandboxSpecSchema = z.object({
  id: z.string(),
  command: z.nullable(z.array(z.string())),
  created_at: z.string(),
  initial_env: z._default(z.record(z.string(), z.string()), {}),
  working_dir: z._default(z.string(), ''),
  /** Ours: the container image it runs in (Docker runtime); OpenHands' responses lack it. `command` null: the image's own. */
  image: z.optional(z.nullable(z.string())),
});
export type SandboxSpec = z.output<typeof sandboxSpecSchema>;

export const sandboxSpecPageSchema = z.object({
  items: z.array(sandboxSpecSchema),
  next_page_id: z._default(z.nullable(z.string()), null),
});

export const MAX_PAGE_SIZE = 100;

/**
 * Paging of every `/search` endpoint: `limit` 1..100 (422 outside, never 500 as OpenHands does). Query values are
 * strings: the number schemas here work only behind the server's lax pre-pass (`laxInput`), which reads `"5"` as 5.
 */
export const pageQuerySchema = z.object({
  page_id: z.optional(z.string()),
  limit: z._default(integer().check(z.gte(1), z.lte(MAX_PAGE_SIZE)), MAX_PAGE_SIZE),
});

export const sandboxSearchQuerySchema = z.extend(pageQuerySchema, {
  status__eq: z.optional(sandboxStatusSchema),
  sandbox_spec_id__eq: z.optional(z.string()),
  /** Ours: one user's sandboxes (an admin's filter; a member sees only their own anyway). */
  created_by_user_id__eq: z.optional(z.string()),
});
export type SandboxSearchQuery = z.output<typeof sandboxSearchQuerySchema>;

/** A query parameter that may be repeated (`?id=a&id=b`), as a list: a single one arrives as a string. */
export const repeatedQueryParam = z.pipe(
  z.union([z.string(), z.array(z.string())]),
  z.transform((values: string | string[]) => (Array.isArray(values) ? values : [values])),
);

/** `?id=a&id=b`: one or many ids. */
export const batchIdsQuerySchema = z.object({ id: repeatedQueryParam });

export const SANDBOX_RUNTIMES = ['process', 'docker'] as const;
export type SandboxRuntimeName = (typeof SANDBOX_RUNTIMES)[number];

/**
 * What keeps sandboxes apart from the server and each other: containers, namespaces of their own
 * (process sandboxes with bubblewrap), a uid of their own each (process sandboxes of a root
 * server without namespaces), or nothing.
 */
export const SANDBOX_ISOLATIONS = ['container', 'namespaces', 'uids', 'none'] as const;
export type SandboxIsolation = (typeof SANDBOX_ISOLATIONS)[number];

/**
 * `GET /api/v1/sandboxes/capacity` (ours): how many run and exist, against MAX_RUNNING_SANDBOXES
 * and MAX_SANDBOXES, where sandboxes run (SANDBOX_RUNTIME) and how they are kept apart (both
 * absent from servers before them).
 */
export const sandboxCapacitySchema = z.object({
  running: integer(),
  max_running: integer(),
  sandboxes: integer(),
  max_sandboxes: integer(),
  runtime: z.optional(z.enum(SANDBOX_RUNTIMES)),
  isolation: z.optional(z.enum(SANDBOX_ISOLATIONS)),
  /** Whose the counts are (ours): the server's (its owner and admins see those), or the caller's own, against their own limits (a member). */
  scope: z.optional(z.enum(['server', 'user'])),
});
export type SandboxCapacity = z.output<typeof sandboxCapacitySchema>;

export const sandboxIdParamsSchema = z.object({ sandbox_id: z.string() });

/** `tail` is read from its query string by the server's lax pre-pass (`laxInput`). */
export const sandboxLogsQuerySchema = z.object({
  tail: z._default(integer().check(z.gte(1), z.lte(5000)), 200),
});
export const sandboxLogsSchema = z.object({ sandbox_id: z.string(), lines: z.array(z.string()) });
export type SandboxLogs = z.output<typeof sandboxLogsSchema>;

export const startSandboxQuerySchema = z.object({ sandbox_spec_id: z.optional(z.string()) });

/**
 * A spec as declared in SANDBOX_SPECS_FILE. `image` (Docker runtime only) is the image it runs in,
 * with the image's own command when `command` is absent; without one it runs in the default image
 * (Docker) or on the server's machine (process), and needs a command.
 */
export const declaredSandboxSpecSchema = z
  .strictObject({
    id: z.string().check(z.minLength(1)),
    command: z._default(z.nullable(z.array(z.string()).check(z.minLength(1))), null),
    initial_env: z._default(z.record(z.string(), z.string()), {}),
    working_dir: z._default(z.string(), ''),
    image: z.optional(z.string().check(z.minLength(1))),
  })
  .check(
    z.superRefine((spec, ctx) => {
      if (spec.command === null && spec.image === undefined) {
        ctx.addIssue({ code: 'custom', message: 'A spec without an image needs a command', path: ['command'], input: spec.command });
      }
    }),
  );
export type DeclaredSandboxSpec = z.output<typeof declaredSandboxSpecSchema>;
