import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { detailErrorSchema } from '../../src/contract/errors';
import { latestResourcesSchema, sandboxResourcesSchema } from '../../src/contract/sandbox-resources';
import { batchIdsQuerySchema, sandboxIdParamsSchema } from '../../src/contract/sandboxes';
import { usageQuerySchema, usageSchema } from '../../src/contract/usage';
import { validationErrorBodySchema } from '../../src/contract/validation-detail';
import type { SandboxResourcesService } from '../services/usage/sandbox-resources';
import type { UsageService } from '../services/usage/usage-service';

const errors = { 404: detailErrorSchema, 422: validationErrorBodySchema };

/** Usage and cost, and what running sandboxes use (ours). Whose figures a caller gets is the services' part. */
export function usageRoutes(usage: UsageService, resources: SandboxResourcesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/usage',
      {
        schema: {
          summary:
            "LLM calls, tokens, costs, sandbox time and conversations started per UTC day, user and model: a member's own, an admin's everyone's (ours)",
          tags: ['Usage'],
          querystring: usageQuerySchema,
          response: { 200: usageSchema, ...errors },
        },
      },
      async (request) => usage.usage(request.caller, request.query),
    );

    app.get(
      '/usage/csv',
      {
        schema: {
          summary: 'The same figures as CSV, a row per day and user (ours)',
          tags: ['Usage'],
          querystring: usageQuerySchema,
          response: { 200: z.string(), ...errors },
        },
      },
      async (request, reply) => {
        const csv = await usage.csv(request.caller, request.query);
        const name = `usage-${request.query.from ?? 'last-30-days'}${request.query.to ? `-${request.query.to}` : ''}.csv`;
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`)
          .send(csv);
      },
    );

    app.get(
      '/v1/sandboxes/resources',
      {
        schema: {
          summary: "Each sandbox's last look at its CPU, memory and workspace disk, in request order (ours)",
          tags: ['Sandboxes'],
          querystring: batchIdsQuerySchema,
          response: { 200: latestResourcesSchema, 400: detailErrorSchema, 422: validationErrorBodySchema },
        },
      },
      async (request) => resources.latest(request.caller, request.query.id),
    );

    app.get(
      '/v1/sandboxes/:sandbox_id/resources',
      {
        schema: {
          summary: 'Its CPU, memory and workspace disk over the last hour, and its limits (ours)',
          tags: ['Sandboxes'],
          params: sandboxIdParamsSchema,
          response: { 200: sandboxResourcesSchema, ...errors },
        },
      },
      async (request) => resources.resources(request.caller, request.params.sandbox_id),
    );
  };
}
