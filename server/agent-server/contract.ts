import * as z from 'zod/mini';
import { conversationIdSchema, executionStatusSchema, metricsSchema, sendMessageRequestSchema } from '../../src/contract/conversations';
import { eventSchema } from '../../src/contract/events';
import { integer } from '../../src/contract/rules';
import { webSearchToolSchema } from './web-search-contract';

/*
 * The agent server's own API (what runs inside each sandbox), as far as the app server uses it:
 * a subset of the agent SDK's (v1.3.0) `StartConversationRequest` and `ConversationInfo`, plus
 * our extensions (`price`, `max_budget_per_task`, `environment`, `language`). Its routes:
 *
 *   POST  /api/conversations                                start (or re-create after a restart)
 *   GET   /api/conversations?ids=…, /api/conversations/{id}  ConversationInfo
 *   PATCH /api/conversations/{id}                           {title} → {success}
 *   GET   /api/conversations/{id}/events/search             EventPage (`kind` module-qualified
 *         or bare, `source`, `timestamp__gte/__lt`, `sort_order`, `page_id` inclusive, `limit`)
 *   POST  /api/conversations/{id}/events                    SendMessageRequest → {success}
 *   POST  /api/conversations/{id}/pause | /run              {success}; run: 409 when running
 *   POST  /api/conversations/{id}/events/respond_to_confirmation  {accept, reason} → {success}
 *   WS    /sockets/events/{id}?resend_all=true              events (and transient frames) as JSON;
 *         key in `X-Session-API-Key` or `session_api_key`; close 4001 bad key, 4004 unknown id
 *   POST  /api/sandbox/resumed                              {success}; ours: the app server says its
 *         sandbox was paused and resumed (a frozen container cannot tell), so runs stop, paused
 */

/** Our extension: the app server calls it after each resume of the agent server's sandbox. */
export const SANDBOX_RESUMED_PATH = '/api/sandbox/resumed';

/** Our extension: the variable a sandbox is started with that names the user it is for (its agent server's `/server_info` says `owner`). */
export const OWNER_VARIABLE = 'AGENT_CONSOLE_USER_ID';

/** SDK `SecurityRisk`: how risky the model rates an action (UNKNOWN when it did not say). */
export const SECURITY_RISKS = ['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH'] as const;
export type SecurityRisk = (typeof SECURITY_RISKS)[number];

/**
 * SDK confirmation policies: never, always, or `ConfirmRisky`: an action rated at `threshold` or
 * above, or not rated (`confirm_unknown`), waits for the user.
 */
export const confirmationPolicySchema = z.union([
  z.object({ kind: z.enum(['NeverConfirm', 'AlwaysConfirm']) }),
  z.object({
    kind: z.literal('ConfirmRisky'),
    threshold: z._default(z.enum(['LOW', 'MEDIUM', 'HIGH']), 'HIGH'),
    confirm_unknown: z._default(z.boolean(), true),
  }),
]);
export type ConfirmationPolicy = z.output<typeof confirmationPolicySchema>;

/** SDK `LLMSecurityAnalyzer`: the model rates each action it asks for (`security_risk`), and must. */
export const securityAnalyzerSchema = z.object({ kind: z.literal('LLMSecurityAnalyzer') });

/** Dollars per million tokens. */
export const llmPriceSchema = z.object({
  input: z.number().check(z.gte(0)),
  output: z.number().check(z.gte(0)),
  cache_read: z._default(z.nullable(z.number().check(z.gte(0))), null),
});
export type LlmPrice = z.output<typeof llmPriceSchema>;

/**
 * SDK `Agent.mcp_config`, fastmcp's `MCPConfig`: servers by name, a stdio server's command (run in
 * the sandbox) or a remote server's URL with its transport and headers (an API key).
 */
const stdioMcpServerSchema = z.object({
  command: z.string(),
  args: z._default(z.array(z.string()), []),
  env: z._default(z.record(z.string(), z.string()), {}),
});
const remoteMcpServerSchema = z.object({
  url: z.string(),
  transport: z._default(z.enum(['sse', 'http', 'streamable-http']), 'http'),
  headers: z._default(z.record(z.string(), z.string()), {}),
});
export const mcpConfigSchema = z.object({
  mcpServers: z._default(z.record(z.string(), z.union([stdioMcpServerSchema, remoteMcpServerSchema])), {}),
});
export type McpConfig = z.output<typeof mcpConfigSchema>;
export type McpServerConfig = McpConfig['mcpServers'][string];

/** SDK `LLMSummarizingCondenser`, on the agent's own LLM: see server/agent-server/condenser.ts. */
export const condenserSchema = z
  .object({
    kind: z.literal('LLMSummarizingCondenser'),
    max_size: z._default(integer().check(z.gte(20)), 120),
    keep_first: z._default(integer().check(z.gte(0)), 4),
  })
  .check(
    z.refine((condenser) => Math.floor(condenser.max_size / 2) - condenser.keep_first - 1 > 0, {
      message: 'keep_first must be less than max_size // 2 to leave room for condensation',
    }),
  );
export type CondenserSettings = z.output<typeof condenserSchema>;

/** SDK `StaticSecret`: the value goes into the terminal's environment and is masked in every event. */
const secretSourceSchema = z.object({ kind: z.literal('StaticSecret'), value: z.string() });

export const agentStartConversationSchema = z.object({
  conversation_id: z._default(z.nullable(conversationIdSchema), null),
  agent: z.object({
    llm: z.object({
      /**
       * `null` until the user names a model in Settings; `demo/scripted` is the built-in demo. A
       * leading `openai/` or `litellm_proxy/` (LiteLLM's provider prefix) is dropped before the
       * name goes to the OpenAI-compatible endpoint; other prefixes are sent as they are.
       */
      model: z.nullable(z.string()),
      base_url: z._default(z.nullable(z.string()), null),
      /** Kept in the agent server's memory only, never written anywhere. */
      api_key: z._default(z.nullable(z.string()), null),
      /** Ours: what the model costs; `null`: unknown, so the cost is unknown. */
      price: z._default(z.nullable(llmPriceSchema), null),
    }),
    /** Its values (API keys, a stdio server's environment) are masked in every event, as secrets are. */
    mcp_config: z._default(mcpConfigSchema, { mcpServers: {} }),
    /** Ours: the web search tool, through the app server (server/agent-server/web-search-contract.ts); `null`: none. */
    web_search: z._default(z.nullable(webSearchToolSchema), null),
    /** `null`: the whole history goes to the LLM, however long. */
    condenser: z._default(z.nullable(condenserSchema), null),
  }),
  workspace: z.object({ working_dir: z.string() }),
  confirmation_policy: z._default(confirmationPolicySchema, { kind: 'NeverConfirm' }),
  /** Ours in the start request (the SDK sets it with `POST …/security_analyzer`). */
  security_analyzer: z._default(z.nullable(securityAnalyzerSchema), null),
  initial_message: z._default(z.nullable(sendMessageRequestSchema), null),
  max_iterations: z._default(integer().check(z.gte(1)), 500),
  /** Custom secrets and the git token by environment variable name. */
  secrets: z._default(z.record(z.string(), secretSourceSchema), {}),
  /** Ours: stop when the cost passes this many dollars. */
  max_budget_per_task: z._default(z.nullable(z.number().check(z.gt(0))), null),
  /** Ours: plain environment for the terminal (e.g. GIT_AUTHOR_NAME); not masked. */
  environment: z._default(z.record(z.string(), z.string()), {}),
  /** Ours: the user's language (Settings' `language`, e.g. `de`): unless English, the system prompt asks the model to write to the user in it. */
  language: z._default(z.nullable(z.string()), null),
  /**
   * Ours: when the server dates the conversation's start, which its system prompt carries: the
   * first event of a conversation the demo dates in the past stays first.
   */
  started_at: z.optional(z.string().check(z.refine((value) => !Number.isNaN(Date.parse(value)), 'Expected an ISO date and time'))),
  /**
   * Ours: a conversation that goes on in a new sandbox after its own was lost: the sandbox it was
   * in, what its workspace was made from, and its events as they were stored (the agent's
   * history, the LLM's context).
   */
  continued_from: z._default(
    z.nullable(
      z.object({
        sandbox_id: z.string(),
        repository: z.nullable(z.string()),
        branch: z.nullable(z.string()),
        history: z.array(eventSchema),
        /** Ours: how many events between the first message and the newest ones were left out of `history` (it is bounded). */
        left_out: z._default(z.number(), 0),
        /** Ours: the conversation's cost and tokens so far, which the new agent's add to: its metrics are the conversation's. */
        metrics: z._default(z.nullable(metricsSchema), null),
      }),
    ),
    null,
  ),
});
export type AgentStartConversation = z.output<typeof agentStartConversationSchema>;
export type AgentStartConversationInput = z.input<typeof agentStartConversationSchema>;

/** What the agent server returns about a conversation (never the LLM key or a secret). */
export const agentConversationInfoSchema = z.object({
  id: z.string(),
  title: z.nullable(z.string()),
  execution_status: executionStatusSchema,
  agent: z.object({ llm: z.object({ model: z.nullable(z.string()), base_url: z.nullable(z.string()) }) }),
  workspace: z.object({ working_dir: z.string() }),
  confirmation_policy: confirmationPolicySchema,
  max_iterations: integer(),
  metrics: z._default(z.nullable(metricsSchema), null),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AgentConversationInfo = z.output<typeof agentConversationInfoSchema>;

export const updateConversationSchema = z.object({ title: z.string().check(z.minLength(1), z.maxLength(200)) });

const PROVIDER_PREFIXES = ['openai/', 'litellm_proxy/'];

/**
 * The model name an OpenAI-compatible API gets (the agent's calls and Test LLM alike):
 * `openai/gpt-4o` → `gpt-4o`; other prefixes (`anthropic/…`) stay, as proxies expect them.
 */
export function wireModelName(model: string): string {
  const prefix = PROVIDER_PREFIXES.find((candidate) => model.startsWith(candidate));
  return prefix ? model.slice(prefix.length) : model;
}
