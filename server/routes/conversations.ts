import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { builtToSchema, storedResponse } from '../http/response-serializer';
import * as z from 'zod/mini';
import {
  type AppConversationPage,
  appConversationPageSchema,
  appConversationSchema,
  batchConversationIdsQuerySchema,
  conversationFilterSchema,
  conversationIdParamsSchema,
  conversationsBySandboxQuerySchema,
  sandboxConversationsSchema,
  conversationPatchSchema,
  conversationSearchQuerySchema,
  legacyRenameSchema,
  startRequestSchema,
  type StartTask,
  startTaskPageSchema,
  startTaskSchema,
  taskFilterSchema,
  taskSearchQuerySchema,
} from '../../src/contract/conversations';
import { validationErrorBodySchema } from '../../src/contract/validation-detail';
import type { ConversationService } from '../services/conversations/conversation-service';
import type { StartTaskService } from '../services/conversations/start-task-service';
import { detailErrorSchema } from '../../src/contract/errors';

const validation = { 422: validationErrorBodySchema };
const tags = ['Conversations'];

/** `GET /app-conversations`: by `ids` as OpenHands has it, or (ours) the first page as `/search` returns it. */
const listQuerySchema = z.extend(conversationSearchQuerySchema, { ids: z.optional(batchConversationIdsQuerySchema.shape.ids) });

const isFinal = (task: StartTask) => task.status === 'READY' || task.status === 'ERROR';

/**
 * Responds with a JSON array streamed one state of a start task at a time, as OpenHands'
 * `stream-start` does: the first state once `begin` has it, each later one as it is saved, up to
 * READY or ERROR. A refusal before the first state is an ordinary error response.
 */
async function streamTaskStates(reply: FastifyReply, begin: (onUpdate: (task: StartTask) => void) => Promise<StartTask>) {
  const stream = new PassThrough();
  const first = await begin((task) => {
    stream.write(`,\n${JSON.stringify(task)}`);
    if (isFinal(task)) stream.end('\n]');
  });
  stream.write(`[\n${JSON.stringify(first)}`);
  return reply.type('application/json; charset=utf-8').send(stream);
}

export function conversationRoutes(conversations: ConversationService, startTasks: StartTaskService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/app-conversations',
      {
        schema: {
          summary: 'Start a conversation: returns the start task in WORKING; the rest goes on in the background',
          tags,
          body: startRequestSchema,
          response: { 200: startTaskSchema, 403: detailErrorSchema, 404: detailErrorSchema, 409: detailErrorSchema, ...validation },
        },
      },
      async (request) => startTasks.start(request.caller, request.body),
    );

    app.post(
      '/v1/app-conversations/:conversation_id/continue-in-new-sandbox',
      {
        schema: {
          summary:
            'Go on with a conversation whose sandbox is gone or failed, in a new one: its workspace made again (the repository cloned at its branch), its agent given its stored history; returns the start task, in WORKING (ours)',
          tags,
          params: conversationIdParamsSchema,
          response: { 200: startTaskSchema, 403: detailErrorSchema, 404: detailErrorSchema, 409: detailErrorSchema },
        },
      },
      async (request) => startTasks.continueInNewSandbox(request.caller, request.params.conversation_id),
    );

    app.post(
      '/v1/app-conversations/:conversation_id/continue-in-new-sandbox/stream',
      {
        schema: {
          summary:
            'Go on in a new sandbox, as POST …/continue-in-new-sandbox; the response is a JSON array of every state of its start task as it happens (ours)',
          description: 'Streamed as `stream-start` streams a start. Refusals (403, 404, 409) as for POST …/continue-in-new-sandbox.',
          tags,
          params: conversationIdParamsSchema,
        },
      },
      async (request, reply) =>
        streamTaskStates(reply, (onUpdate) => startTasks.continueInNewSandbox(request.caller, request.params.conversation_id, onUpdate)),
    );

    app.post(
      '/v1/app-conversations/stream-start',
      {
        schema: {
          summary: 'Start a conversation; the response is a JSON array of every state of its start task as it happens',
          description:
            'The array is streamed: one `AppConversationStartTask` per state, up to READY or ERROR. Refusals (403, 404, 409, 422) as for POST /api/v1/app-conversations.',
          tags,
          body: startRequestSchema,
        },
      },
      async (request, reply) => streamTaskStates(reply, (onUpdate) => startTasks.start(request.caller, request.body, onUpdate)),
    );

    app.get(
      '/v1/app-conversations/start-tasks',
      {
        schema: {
          summary: 'Start tasks by id (repeat ?ids=), in that order, null for unknown ids',
          tags,
          querystring: batchConversationIdsQuerySchema,
          response: { 200: z.array(z.nullable(startTaskSchema)), 400: detailErrorSchema, ...validation },
        },
      },
      async (request) => startTasks.getMany(request.caller, request.query.ids),
    );

    app.get(
      '/v1/app-conversations/start-tasks/search',
      {
        schema: {
          summary: 'Start tasks, newest first by default',
          tags,
          querystring: taskSearchQuerySchema,
          response: { 200: startTaskPageSchema, ...validation },
        },
      },
      async (request) => startTasks.search(request.caller, request.query),
    );

    app.get(
      '/v1/app-conversations/start-tasks/count',
      {
        schema: {
          summary: 'How many start tasks match',
          tags,
          querystring: taskFilterSchema,
          response: { 200: z.number(), ...validation },
        },
      },
      async (request) => startTasks.count(request.caller, request.query),
    );

    app.get(
      '/v1/app-conversations/search',
      {
        schema: {
          summary: 'Conversations, newest first by default (sort_order, sandbox_id__eq and archived are ours)',
          tags,
          querystring: conversationSearchQuerySchema,
          response: { 200: builtToSchema(appConversationPageSchema), ...validation },
        },
      },
      async (request) => storedResponse<AppConversationPage>(await conversations.search(request.caller, request.query)),
    );

    app.get(
      '/v1/app-conversations/by-sandbox',
      {
        schema: {
          summary: 'The conversations each sandbox serves (repeat ?sandbox_id=), in that order (ours)',
          tags,
          querystring: conversationsBySandboxQuerySchema,
          response: { 200: sandboxConversationsSchema, 400: detailErrorSchema, ...validation },
        },
      },
      async (request) => conversations.bySandbox(request.caller, request.query.sandbox_id),
    );

    app.get(
      '/v1/app-conversations/count',
      {
        schema: {
          summary: 'How many conversations match: exactly what /search pages through',
          tags,
          querystring: conversationFilterSchema,
          response: { 200: z.number(), ...validation },
        },
      },
      async (request) => conversations.count(request.caller, request.query),
    );

    app.get(
      '/v1/app-conversations',
      {
        schema: {
          summary: 'Conversations by id (repeat ?ids=), in that order, null for unknown ids; without ids, the first page of /search',
          tags,
          querystring: listQuerySchema,
          response: {
            // Both responses are built to it: the service builds each item itself.
            200: builtToSchema(z.union([z.array(z.nullable(appConversationSchema)), appConversationPageSchema])),
            400: detailErrorSchema,
            ...validation,
          },
        },
      },
      async (request) =>
        request.query.ids
          ? conversations.getMany(request.caller, request.query.ids)
          : storedResponse<AppConversationPage>(await conversations.search(request.caller, request.query)),
    );

    app.patch(
      '/v1/app-conversations/:conversation_id',
      {
        schema: {
          summary: 'Rename or (un)archive a conversation (ours)',
          tags,
          params: conversationIdParamsSchema,
          body: conversationPatchSchema,
          response: { 200: appConversationSchema, 404: detailErrorSchema, ...validation },
        },
      },
      async (request) => conversations.update(request.caller, request.params.conversation_id, request.body),
    );

    app.delete(
      '/v1/app-conversations/:conversation_id',
      {
        schema: {
          summary: 'Delete a conversation, its start tasks, and its sandbox when it started one nobody else uses (ours)',
          tags,
          params: conversationIdParamsSchema,
          response: { 200: z.object({ success: z.boolean() }), 404: detailErrorSchema },
        },
      },
      async (request) => {
        await conversations.delete(request.caller, request.params.conversation_id);
        return { success: true };
      },
    );

    app.patch(
      '/conversations/:conversation_id',
      {
        schema: {
          summary: "Rename a conversation (OpenHands' legacy route, which its web client uses)",
          tags,
          params: conversationIdParamsSchema,
          body: legacyRenameSchema,
          response: { 200: z.boolean(), 404: detailErrorSchema, ...validation },
        },
      },
      async (request) => {
        await conversations.update(request.caller, request.params.conversation_id, { title: request.body.title });
        return true;
      },
    );

    app.delete(
      '/conversations/:conversation_id',
      {
        schema: {
          summary: "Delete a conversation (OpenHands' legacy route, which its web client uses)",
          tags,
          params: conversationIdParamsSchema,
          response: { 200: z.boolean(), 404: detailErrorSchema },
        },
      },
      async (request) => {
        await conversations.delete(request.caller, request.params.conversation_id);
        return true;
      },
    );
  };
}
