import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { conversationIdParamsSchema, MAX_MESSAGE_IMAGE_BYTES } from '../../src/contract/conversations';
import { appSendMessageSchema, confirmationResponseSchema, successSchema } from '../../src/contract/events';
import { validationErrorBodySchema } from '../../src/contract/validation-detail';
import type { AgentConversations } from '../services/conversations/agent-conversations';
import type { EventService } from '../services/events/event-service';
import { EventStreams, sseFrame } from './event-stream';
import { detailErrorSchema } from '../../src/contract/errors';

const MESSAGE_BODY_LIMIT = MAX_MESSAGE_IMAGE_BYTES + 1024 * 1024;

/**
 * 403: only the conversation's owner may (the detail says why); 409: its state does not allow it
 * (the detail says what to do); 503: its agent server cannot do it now.
 */
const refusals = { 403: detailErrorSchema, 404: detailErrorSchema, 409: detailErrorSchema, 503: detailErrorSchema };

/** What a person does with a conversation's agent (ours), forwarded to its agent server, and its live event stream. */
export function conversationAgentRoutes(
  agents: AgentConversations,
  events: EventService,
  eventStreamBufferBytes?: number,
): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['Conversations'];
    const params = conversationIdParamsSchema;
    const streams = new EventStreams(eventStreamBufferBytes);
    app.addHook('preClose', async () => streams.endAll());

    app.post(
      '/v1/app-conversations/:conversation_id/send-message',
      {
        // Its images come as data URLs (MAX_MESSAGE_IMAGE_BYTES in all).
        bodyLimit: MESSAGE_BODY_LIMIT,
        schema: {
          summary: 'Send the agent a message; it runs unless `run` is false (ours)',
          tags,
          params,
          body: appSendMessageSchema,
          response: { 200: successSchema, ...refusals, 422: validationErrorBodySchema },
        },
      },
      async (request) => {
        await agents.sendMessage(request.caller, request.params.conversation_id, request.body);
        return { success: true };
      },
    );

    app.post(
      '/v1/app-conversations/:conversation_id/pause',
      { schema: { summary: 'Stop the agent after its current step (ours)', tags, params, response: { 200: successSchema, ...refusals } } },
      async (request) => {
        await agents.pause(request.caller, request.params.conversation_id);
        return { success: true };
      },
    );

    app.post(
      '/v1/app-conversations/:conversation_id/run',
      {
        schema: {
          summary: 'Let the agent continue; 409 when it is running already (ours)',
          tags,
          params,
          response: { 200: successSchema, ...refusals },
        },
      },
      async (request) => {
        await agents.run(request.caller, request.params.conversation_id);
        return { success: true };
      },
    );

    app.post(
      '/v1/app-conversations/:conversation_id/confirm',
      {
        schema: {
          summary: 'Approve (accept: true) or reject the action waiting for confirmation (ours)',
          tags,
          params,
          body: confirmationResponseSchema,
          response: { 200: successSchema, ...refusals, 422: validationErrorBodySchema },
        },
      },
      async (request) => {
        await agents.confirm(request.caller, request.params.conversation_id, request.body);
        return { success: true };
      },
    );

    app.get(
      '/v1/app-conversations/:conversation_id/events/stream',
      {
        schema: {
          summary: 'The conversation live, as text/event-stream: stored events (with ids) after Last-Event-ID, then each frame as it comes',
          description:
            'Without a Last-Event-ID header every stored event comes first. Stored events carry `id:`; transient frames (`ConversationState`, `StreamingDelta`, `TerminalOutput`) do not. A comment line comes every 15 s.',
          tags,
          params,
          headers: z.looseObject({ 'last-event-id': z.optional(z.string()) }),
          response: { 200: z.string(), 404: detailErrorSchema },
        },
      },
      async (request, reply) => {
        const lastEventId = request.headers['last-event-id'];
        // Looked up before the stream opens, so an unknown one is a 404.
        const conversationId = await events.ensureConversation(request.caller, request.params.conversation_id);
        let stop: (() => void) | undefined;
        let ended = false;
        const stream = streams.open(reply, () => {
          ended = true;
          stop?.();
        });
        try {
          // A deleted conversation's stream ends.
          stop = await events.follow(
            request.caller,
            conversationId,
            lastEventId,
            (frame) => stream.write(sseFrame(frame)),
            stream.end,
            stream.drained,
          );
          if (ended) stop();
        } catch (error) {
          request.log.warn({ err: error }, 'an event stream ended early');
          stream.end();
        }
      },
    );
  };
}
