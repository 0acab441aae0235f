import * as z from 'zod/mini';
import { pageQuerySchema } from '../../../src/contract/sandboxes';

/*
 * OpenHands' legacy conversation routes (`GET /api/conversations`, `GET /api/conversations/{id}`),
 * which its web client's home and conversation pages still read, in the shape of its V1 shim
 * (`_to_conversation_info` in `manage_conversations.py`, pinned commit 156d068).
 */

export const LEGACY_CONVERSATION_STATUSES = ['STARTING', 'RUNNING', 'STOPPED', 'ARCHIVED', 'ERROR'] as const;

export const legacyConversationSchema = z.object({
  conversation_id: z.string(),
  title: z.string(),
  last_updated_at: z.nullable(z.string()),
  status: z.enum(LEGACY_CONVERSATION_STATUSES),
  /** `STATUS$READY` / `STATUS$ERROR` while the sandbox runs, else null. */
  runtime_status: z.nullable(z.string()),
  selected_repository: z.nullable(z.string()),
  selected_branch: z.nullable(z.string()),
  git_provider: z.nullable(z.string()),
  trigger: z.nullable(z.string()),
  num_connections: z.number(),
  url: z.nullable(z.string()),
  session_api_key: z.nullable(z.string()),
  created_at: z.string(),
  pr_number: z.array(z.number()),
  conversation_version: z.literal('V1'),
  sub_conversation_ids: z.array(z.string()),
});
export type LegacyConversation = z.output<typeof legacyConversationSchema>;

export const legacyConversationPageSchema = z.object({
  results: z.array(legacyConversationSchema),
  next_page_id: z.nullable(z.string()),
});

/** OpenHands' default page size here is 20, not the V1 searches' 100. */
export const legacyConversationQuerySchema = z.extend(pageQuerySchema, {
  limit: z._default(pageQuerySchema.shape.limit, 20),
});

/** `GET /api/conversations/{id}/config` for a V1 conversation: its sandbox, and its id as the path gave it. */
export const legacyConversationConfigSchema = z.object({ runtime_id: z.nullable(z.string()), session_id: z.nullable(z.string()) });
