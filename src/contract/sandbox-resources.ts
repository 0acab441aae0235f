import * as z from 'zod/mini';

/*
 * What a running sandbox uses (ours): CPU, memory and its workspace on disk, sampled every few
 * seconds by the instance that runs it, the last hour kept.
 */

/** One look: `cpu_percent` 100 is one CPU busy the whole time since the look before. */
export const resourceSampleSchema = z.object({
  at: z.string(),
  cpu_percent: z.number(),
  memory_bytes: z.number(),
  /** Its workspace (home) as last measured (less often than the rest); null before the first. */
  disk_bytes: z.nullable(z.number()),
});
export type ResourceSample = z.output<typeof resourceSampleSchema>;

/** What it may use: CPUs, memory, disk (null: no limit of its own, it shares the machine's). */
export const resourceLimitsSchema = z.object({
  cpus: z.number(),
  memory_bytes: z.nullable(z.number()),
  disk_bytes: z.nullable(z.number()),
});
export type ResourceLimits = z.output<typeof resourceLimitsSchema>;

/** `GET /api/v1/sandboxes/{id}/resources`: the last hour, oldest first (empty when it has not run meanwhile). */
export const sandboxResourcesSchema = z.object({
  sandbox_id: z.string(),
  limits: z.nullable(resourceLimitsSchema),
  samples: z.array(resourceSampleSchema),
});
export type SandboxResources = z.output<typeof sandboxResourcesSchema>;

/** `GET /api/v1/sandboxes/resources?id=…`: each one's last look, in request order (null: none, or not visible). */
export const latestResourcesSchema = z.array(
  z.object({ sandbox_id: z.string(), latest: z.nullable(resourceSampleSchema), limits: z.nullable(resourceLimitsSchema) }),
);
export type LatestResources = z.output<typeof latestResourcesSchema>;
