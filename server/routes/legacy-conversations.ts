import { msg } from '@lingui/core/macro';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { conversationIdParamsSchema } from '../../src/contract/conversations';
import { detailErrorSchema } from '../../src/contract/errors';
import {
  legacyConversationConfigSchema,
  legacyConversationPageSchema,
  legacyConversationQuerySchema,
  legacyConversationSchema,
} from '../services/conversations/legacy-conversation-schemas';
import { validationErrorBodySchema } from '../../src/contract/validation-detail';
import { Invalid } from '../domain-errors';
import type { ConversationService } from '../services/conversations/conversation-service';
import { toLegacyConversation } from '../services/conversations/legacy-conversations';

const tags = ['Conversations'];

/**
 * OpenHands' legacy reads of conversations, which its web client's home and conversation pages
 * use (rename and delete are in `conversations.ts`). This server has V1 conversations only.
 */
export function legacyConversationRoutes(conversations: ConversationService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/conversations',
      {
        schema: {
          summary: "Conversations, newest first, in OpenHands' legacy shape (`next_page_id` goes back as `page_id`)",
          tags,
          querystring: legacyConversationQuerySchema,
          response: { 200: legacyConversationPageSchema, 422: validationErrorBodySchema },
        },
      },
      async (request) => {
        const { page_id, limit } = request.query;
        const page = await conversations.search(request.caller, { page_id, limit, sort_order: 'CREATED_AT_DESC', archived: false });
        return { results: page.items.toJSON().map(toLegacyConversation), next_page_id: page.next_page_id };
      },
    );

    app.post(
      '/conversations',
      {
        schema: {
          summary: "OpenHands' legacy (V0) start, which this server does not have: returns 422 pointing to POST /api/v1/app-conversations",
          tags,
          body: z.optional(z.unknown()),
          response: { 422: validationErrorBodySchema },
        },
      },
      async () => {
        throw new Invalid(
          [],
          msg`This server starts conversations with POST /api/v1/app-conversations (V1) only. In OpenHands' web client, turn that on: localStorage FEATURE_USE_V1_CONVERSATION_API = 'true'`,
        );
      },
    );

    app.get(
      '/conversations/:conversation_id',
      {
        schema: {
          summary: "A conversation in OpenHands' legacy shape, its status mapped from its sandbox's",
          tags,
          params: conversationIdParamsSchema,
          response: { 200: legacyConversationSchema, 404: detailErrorSchema },
        },
      },
      async (request) => toLegacyConversation(await conversations.get(request.caller, request.params.conversation_id)),
    );

    app.get(
      '/conversations/:conversation_id/config',
      {
        schema: {
          summary: "A conversation's runtime, as OpenHands answers it for a V1 conversation: its sandbox's id, and its own id as given",
          tags,
          params: conversationIdParamsSchema,
          response: { 200: legacyConversationConfigSchema, 404: detailErrorSchema },
        },
      },
      async (request) => {
        const { sandbox_id } = await conversations.get(request.caller, request.params.conversation_id);
        return { runtime_id: sandbox_id, session_id: request.params.conversation_id };
      },
    );
  };
}
