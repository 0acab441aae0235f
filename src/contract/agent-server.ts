import * as z from 'zod/mini';
import { conversationIdSchema, executionStatusSchema, sendMessageRequestSchema } from './conversations';
import { integer } from './rules';

/*
 * The agent server's own API (what runs inside each sandbox), as far as the app server uses it:
 * a subset of the agent SDK's (v1.3.0) `StartConversationRequest` and `ConversationInfo`.
 */

export const confirmationPolicySchema = z.object({ kind: z.enum(['NeverConfirm', 'AlwaysConfirm']) });

export const agentStartConversationSchema = z.object({
  conversation_id: z._default(z.nullable(conversationIdSchema), null),
  agent: z.object({
    llm: z.object({
      /** `null` until the user names a model in Settings. */
      model: z.nullable(z.string()),
      base_url: z._default(z.nullable(z.string()), null),
      /** Kept in the agent server's memory only, never written anywhere. */
      api_key: z._default(z.nullable(z.string()), null),
    }),
  }),
  workspace: z.object({ working_dir: z.string() }),
  confirmation_policy: z._default(confirmationPolicySchema, { kind: 'NeverConfirm' }),
  initial_message: z._default(z.nullable(sendMessageRequestSchema), null),
  max_iterations: z._default(integer().check(z.gte(1)), 500),
});
export type AgentStartConversation = z.output<typeof agentStartConversationSchema>;
export type AgentStartConversationInput = z.input<typeof agentStartConversationSchema>;

/** What the agent server tells about a conversation (never the LLM key). */
export const agentConversationInfoSchema = z.object({
  id: z.string(),
  title: z.nullable(z.string()),
  execution_status: executionStatusSchema,
  agent: z.object({ llm: z.object({ model: z.nullable(z.string()), base_url: z.nullable(z.string()) }) }),
  workspace: z.object({ working_dir: z.string() }),
  confirmation_policy: confirmationPolicySchema,
  max_iterations: integer(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AgentConversationInfo = z.output<typeof agentConversationInfoSchema>;
