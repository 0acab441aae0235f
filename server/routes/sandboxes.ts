import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { builtToSchema } from '../http/response-serializer';
import { detailErrorSchema } from '../../src/contract/errors';
import * as z from 'zod/mini';
import {
  batchIdsQuerySchema,
  pageQuerySchema,
  sandboxCapacitySchema,
  sandboxActionResultSchema,
  sandboxIdParamsSchema,
  sandboxInfoSchema,
  sandboxLogsQuerySchema,
  sandboxLogsSchema,
  sandboxPageSchema,
  sandboxSearchQuerySchema,
  sandboxSpecPageSchema,
  sandboxSpecSchema,
  startedSandboxSchema,
  startSandboxQuerySchema,
} from '../../src/contract/sandboxes';
import { validationErrorBodySchema } from '../../src/contract/validation-detail';
import type { SandboxService } from '../services/sandboxes/sandbox-service';
import type { Caller } from '../authz/caller';

/** 503: the Docker engine could not do it (its own words in the detail). */
const errors = { 404: detailErrorSchema, 422: validationErrorBodySchema, 503: detailErrorSchema };

/** Which sandboxes a start or resume paused to stay under MAX_RUNNING_SANDBOXES, also as a header. */
const PAUSED_HEADER = 'x-paused-sandboxes';

export function sandboxRoutes(sandboxes: SandboxService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['Sandboxes'];

    app.get(
      '/v1/sandboxes/search',
      {
        schema: {
          summary: 'Sandboxes, newest first (filters status__eq and sandbox_spec_id__eq are ours)',
          tags,
          querystring: sandboxSearchQuerySchema,
          response: { 200: builtToSchema(sandboxPageSchema), 422: validationErrorBodySchema },
        },
      },
      async (request) => sandboxes.search(request.caller, request.query),
    );

    app.get(
      '/v1/sandboxes/capacity',
      {
        schema: {
          summary:
            "How many sandboxes run and exist, against MAX_RUNNING_SANDBOXES and MAX_SANDBOXES; a member's own, against their limits (ours)",
          tags,
          response: { 200: sandboxCapacitySchema },
        },
      },
      async (request) => sandboxes.capacity(request.caller),
    );

    app.get(
      '/v1/sandboxes',
      {
        schema: {
          summary: 'Sandboxes by id (repeat ?id=), in that order, null for unknown ids',
          tags,
          querystring: batchIdsQuerySchema,
          response: { 200: z.array(z.nullable(sandboxInfoSchema)), 400: detailErrorSchema, 422: validationErrorBodySchema },
        },
      },
      async (request) => sandboxes.getMany(request.caller, request.query.id),
    );

    app.post(
      '/v1/sandboxes',
      {
        schema: {
          summary: 'Start a sandbox from a spec (the default spec when sandbox_spec_id is absent)',
          tags,
          querystring: startSandboxQuerySchema,
          response: { 200: startedSandboxSchema, 409: detailErrorSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { sandbox, pausedIds } = await sandboxes.start(request.caller, request.query.sandbox_spec_id);
        if (pausedIds.length > 0) reply.header(PAUSED_HEADER, pausedIds.join(','));
        return { ...sandbox, paused_sandbox_ids: pausedIds };
      },
    );

    app.post(
      '/v1/sandboxes/:sandbox_id/pause',
      {
        schema: {
          summary: 'Pause (SIGSTOP the process group); pausing a paused sandbox is fine',
          tags,
          params: sandboxIdParamsSchema,
          response: { 200: sandboxActionResultSchema, ...errors },
        },
      },
      async (request) => {
        await sandboxes.pause(request.caller, request.params.sandbox_id);
        return { success: true };
      },
    );

    app.post(
      '/v1/sandboxes/:sandbox_id/resume',
      {
        schema: {
          summary: 'Resume (SIGCONT); may pause the oldest running sandbox to stay under the cap',
          tags,
          params: sandboxIdParamsSchema,
          response: { 200: sandboxActionResultSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { pausedIds } = await sandboxes.resume(request.caller, request.params.sandbox_id);
        if (pausedIds.length > 0) reply.header(PAUSED_HEADER, pausedIds.join(','));
        return { success: true, paused_sandbox_ids: pausedIds };
      },
    );

    const remove = async (caller: Caller, id: string) => {
      await sandboxes.delete(caller, id);
      return { success: true };
    };
    app.delete(
      '/v1/sandboxes/:sandbox_id',
      {
        schema: {
          summary: 'Delete: stop the processes, remove the directory',
          tags,
          params: sandboxIdParamsSchema,
          response: { 200: sandboxActionResultSchema, ...errors },
        },
      },
      async (request) => remove(request.caller, request.params.sandbox_id),
    );
    app.delete(
      '/v1/sandboxes',
      {
        schema: {
          summary: 'Delete, with the id as ?sandbox_id= (as the pinned OpenHands takes it)',
          tags,
          querystring: z.object({ sandbox_id: z.string() }),
          response: { 200: sandboxActionResultSchema, ...errors },
        },
      },
      async (request) => remove(request.caller, request.query.sandbox_id),
    );

    app.get(
      '/v1/sandboxes/:sandbox_id/logs',
      {
        schema: {
          summary: "The last lines of the sandbox's stdout and stderr (ours)",
          tags,
          params: sandboxIdParamsSchema,
          querystring: sandboxLogsQuerySchema,
          response: { 200: sandboxLogsSchema, ...errors },
        },
      },
      async (request) => ({
        sandbox_id: request.params.sandbox_id,
        lines: await sandboxes.logs(request.caller, request.params.sandbox_id, request.query.tail),
      }),
    );

    app.get(
      '/v1/sandbox-specs/search',
      {
        schema: {
          summary: 'Sandbox specs, the default first',
          tags: ['Sandbox specs'],
          querystring: pageQuerySchema,
          response: { 200: sandboxSpecPageSchema, 422: validationErrorBodySchema },
        },
      },
      async (request) => sandboxes.searchSpecs(request.query.page_id, request.query.limit),
    );

    app.get(
      '/v1/sandbox-specs',
      {
        schema: {
          summary: 'Sandbox specs by id (repeat ?id=), null for unknown ids',
          tags: ['Sandbox specs'],
          querystring: batchIdsQuerySchema,
          response: { 200: z.array(z.nullable(sandboxSpecSchema)), 400: detailErrorSchema, 422: validationErrorBodySchema },
        },
      },
      async (request) => sandboxes.getSpecs(request.query.id),
    );
  };
}
