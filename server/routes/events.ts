import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { builtToSchema, storedResponse } from '../http/response-serializer';
import { detailErrorSchema } from '../../src/contract/errors';
import * as z from 'zod/mini';
import {
  eventCountQuerySchema,
  eventIdsQuerySchema,
  eventPageSchema,
  eventSchema,
  eventSearchQuerySchema,
  type EventPage,
  successSchema,
  webhookEventsParamsSchema,
} from '../../src/contract/events';
import { validationErrorBodySchema } from '../../src/contract/validation-detail';
import { SESSION_KEY_HEADER } from '../http/auth';
import type { EventService } from '../services/events/event-service';
import type { SandboxService } from '../services/sandboxes/sandbox-service';

const validation = { 422: validationErrorBodySchema };

/** OpenHands' event routes: search, count and get of stored events, and the webhook agent servers may push to. */
export function eventRoutes(events: EventService, sandboxes: SandboxService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['Events'];

    app.get(
      '/v1/events/search',
      {
        schema: {
          summary: 'Stored events, oldest first by default; every event is on exactly one page',
          tags,
          querystring: eventSearchQuerySchema,
          response: { 200: builtToSchema(eventPageSchema), ...validation },
        },
      },
      async (request) => storedResponse<EventPage>(await events.search(request.caller, request.query)),
    );

    app.get(
      '/v1/events/count',
      {
        schema: {
          summary: 'How many stored events match: exactly what /search pages through',
          tags,
          querystring: eventCountQuerySchema,
          response: { 200: z.number(), ...validation },
        },
      },
      async (request) => events.count(request.caller, request.query),
    );

    app.get(
      '/v1/events',
      {
        schema: {
          summary: 'Events by id (repeat ?id=, at most 100), in that order, null for unknown ids',
          tags,
          querystring: eventIdsQuerySchema,
          response: { 200: z.array(z.nullable(eventSchema)), 400: detailErrorSchema, ...validation },
        },
      },
      async (request) => events.getMany(request.caller, request.query.id),
    );

    app.post(
      '/v1/webhooks/:sandbox_id/events/:conversation_id',
      {
        onRequest: async (request, reply) => {
          const { sandbox_id: sandboxId } = request.params as { sandbox_id: string };
          if (await sandboxes.sessionKeyMatches(sandboxId, request.headers[SESSION_KEY_HEADER.toLowerCase()])) return;
          return reply.status(401).send({ detail: 'Unauthorized' });
        },
        schema: {
          summary: "Events an agent server pushes (OpenHands' webhook), with its sandbox's key, not the session key",
          tags,
          params: webhookEventsParamsSchema,
          body: z.array(eventSchema),
          response: { 200: successSchema, 401: detailErrorSchema, 404: detailErrorSchema, ...validation },
        },
      },
      async (request) => {
        await events.receiveFromSandbox(request.params.sandbox_id, request.params.conversation_id, request.body);
        return { success: true };
      },
    );
  };
}
