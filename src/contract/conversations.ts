import { msg } from '@lingui/core/macro';
import * as z from 'zod/mini';
import { integer, rule } from './rules';
import { pageQuerySchema, repeatedQueryParam, sandboxStatusSchema } from './sandboxes';
import { providerSchema } from './secrets';

/*
 * App conversations and their start tasks (`/api/v1/app-conversations`), as OpenHands returns
 * them (pinned commit 156d068), plus our extensions: `sandbox_spec_id` on a start request,
 * `archived`, `skills`, and the search's `sort_order`, `sandbox_id__eq` and `archived`.
 */

const HEX_ID = /^[0-9a-f]{32}$/;
const DASHED_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A conversation or task id: 32 lowercase hex, as OpenHands' `OpenHandsUUID` serialises; a dashed UUID is accepted too. */
export const conversationIdSchema = z.pipe(
  z.string().check(
    z.refine((id) => HEX_ID.test(id.toLowerCase()) || DASHED_ID.test(id.toLowerCase()), {
      error: 'Input should be a valid UUID',
    }),
  ),
  z.transform((id: string) => id.toLowerCase().replaceAll('-', '')),
);

export const TASK_STATUSES = [
  'WORKING',
  'WAITING_FOR_SANDBOX',
  'PREPARING_REPOSITORY',
  'RUNNING_SETUP_SCRIPT',
  'SETTING_UP_GIT_HOOKS',
  'SETTING_UP_SKILLS',
  'STARTING_CONVERSATION',
  'READY',
  'ERROR',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const EXECUTION_STATUSES = ['idle', 'running', 'paused', 'waiting_for_confirmation', 'finished', 'error', 'stuck'] as const;
export const executionStatusSchema = z.enum(EXECUTION_STATUSES);
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export const TRIGGERS = [
  'resolver',
  'gui',
  'suggested_task',
  'openhands_api',
  'slack',
  'microagent_management',
  'jira',
  'jira_dc',
  'linear',
  'bitbucket',
] as const;

/**
 * The most a message's images may take, as the data URLs they are sent as (all of them): its
 * event must stay within what an agent server's frame may carry.
 */
export const MAX_MESSAGE_IMAGE_BYTES = 3 * 1024 * 1024;

/** An image a message may carry: a data URL of a PNG, JPEG, GIF or WebP, or an https URL. */
export const IMAGE_URL = /^(data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+=*|https:\/\/\S+)$/;

/** SDK `TextContent` / `ImageContent` (extra keys refused, as the SDK does). */
const contentSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string(), cache_prompt: z._default(z.boolean(), false) }),
  z.strictObject({
    type: z.literal('image'),
    image_urls: z.array(z.string().check(z.regex(IMAGE_URL, 'An image is a data URL of a PNG, JPEG, GIF or WebP image, or an https URL'))),
    cache_prompt: z._default(z.boolean(), false),
  }),
]);

/** The image URLs of a message's content (SDK `ImageContent`), whatever is known of its shape. */
export function imageUrlsOf(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return (content as { type?: unknown; image_urls?: unknown }[]).flatMap((part) =>
    part?.type === 'image' && Array.isArray(part.image_urls) ? part.image_urls.filter((url): url is string => typeof url === 'string') : [],
  );
}

/** How much a message's images take, as the data URLs they are sent as. */
export const imageBytes = (content: unknown) => imageUrlsOf(content).reduce((sum, url) => sum + url.length, 0);

/** SDK `SendMessageRequest`. */
export const sendMessageRequestSchema = z.object({
  role: z._default(z.enum(['user', 'system', 'assistant', 'tool']), 'user'),
  content: z._default(z.array(contentSchema), []).check(
    z.refine((content) => imageBytes(content) <= MAX_MESSAGE_IMAGE_BYTES, {
      message: `A message's images may take ${MAX_MESSAGE_IMAGE_BYTES / 1024 / 1024} MiB at most (as data URLs)`,
    }),
  ),
  run: z._default(z.boolean(), false),
});
export type SendMessageRequest = z.output<typeof sendMessageRequestSchema>;

/** The event callback processors OpenHands knows (a discriminated union on `kind`). */
const processorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('LoggingCallbackProcessor') }),
  z.object({ kind: z.literal('SetTitleCallbackProcessor') }),
  z.object({
    kind: z.literal('GithubV1CallbackProcessor'),
    github_view_data: z._default(z.record(z.string(), z.unknown()), {}),
    should_request_summary: z._default(z.boolean(), true),
    should_extract: z._default(z.boolean(), true),
    inline_pr_comment: z._default(z.boolean(), false),
  }),
]);

const optionalText = z._default(z.nullable(z.string()), null);

const CONTROL_CHARACTER = /\p{Cc}/u;

/** A repository as `owner/name`: no control characters (a NUL would end the name on its way to git). */
const repositoryName = z
  .string()
  .check(rule((name: string) => (CONTROL_CHARACTER.test(name) ? msg`A repository name cannot contain control characters` : undefined)));

/** A branch git takes as a name: one starting with `-` would be read as an option of git's. */
const branchName = z.string().check(
  rule((name: string) => {
    if (name.startsWith('-')) return msg`A branch name cannot start with -`;
    if (CONTROL_CHARACTER.test(name)) return msg`A branch name cannot contain control characters`;
    return undefined;
  }),
);

/** `POST /api/v1/app-conversations`: every field optional, `{}` is a valid request. */
export const startRequestSchema = z.object({
  sandbox_id: optionalText,
  /** Ours: the spec a new sandbox starts from (the default spec when absent). */
  sandbox_spec_id: z.optional(z.nullable(z.string())),
  conversation_id: z._default(z.nullable(conversationIdSchema), null),
  initial_message: z._default(z.nullable(sendMessageRequestSchema), null),
  system_message_suffix: optionalText,
  processors: z._default(z.nullable(z.array(processorSchema)), null),
  llm_model: optionalText,
  selected_repository: z._default(z.nullable(repositoryName), null),
  selected_branch: z._default(z.nullable(branchName), null),
  git_provider: z._default(z.nullable(providerSchema), null),
  /** OpenHands ignores it at this commit; we use it. */
  title: z._default(z.nullable(z.string().check(z.maxLength(200))), null),
  trigger: z._default(z.nullable(z.enum(TRIGGERS)), null),
  pr_number: z._default(z.array(integer()), []),
  parent_conversation_id: z._default(z.nullable(conversationIdSchema), null),
  agent_type: z._default(z.enum(['default', 'plan']), 'default'),
});
export type StartRequest = z.output<typeof startRequestSchema>;
export type StartRequestInput = z.input<typeof startRequestSchema>;

/** The request as a task echoes it: ids already in their stored (hex) form. */
const startRequestEchoSchema = z.extend(startRequestSchema, {
  conversation_id: z.nullable(z.string()),
  parent_conversation_id: z.nullable(z.string()),
});

export const startTaskSchema = z.object({
  id: z.string(),
  created_by_user_id: z.nullable(z.string()),
  status: z.enum(TASK_STATUSES),
  detail: z.nullable(z.string()),
  app_conversation_id: z.nullable(z.string()),
  sandbox_id: z.nullable(z.string()),
  agent_server_url: z.nullable(z.string()),
  request: startRequestEchoSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type StartTask = z.output<typeof startTaskSchema>;

export const startTaskPageSchema = z.object({ items: z.array(startTaskSchema), next_page_id: z._default(z.nullable(z.string()), null) });

const tokenUsageSchema = z.object({
  model: z._default(z.string(), ''),
  prompt_tokens: z._default(integer(), 0),
  completion_tokens: z._default(integer(), 0),
  cache_read_tokens: z._default(integer(), 0),
  cache_write_tokens: z._default(integer(), 0),
  reasoning_tokens: z._default(integer(), 0),
  context_window: z._default(integer(), 0),
  per_turn_token: z._default(integer(), 0),
  response_id: z._default(z.string(), ''),
});

export const metricsSchema = z.object({
  model_name: z._default(z.string(), 'default'),
  accumulated_cost: z._default(z.number(), 0),
  max_budget_per_task: z._default(z.nullable(z.number()), null),
  accumulated_token_usage: z._default(z.nullable(tokenUsageSchema), null),
  /** Ours: `false` when the model has no known price, so `accumulated_cost` says nothing and a budget cannot apply. */
  cost_known: z._default(z.boolean(), true),
});
export type Metrics = z.output<typeof metricsSchema>;

/**
 * The SDK's `ConversationStats`, as its agent server sends it in a `stats` state update (and in
 * `full_state`): each LLM's metrics by what it is used for, the agent's under `agent`. OpenHands'
 * web client reads its cost and tokens there.
 */
export const statsOf = (metrics: Metrics) => ({
  usage_to_metrics: { agent: { ...metrics, costs: [], response_latencies: [], token_usages: [] } },
});

/** The agent's metrics in a `ConversationStats` (`statsOf`), where there are any. */
export const agentMetricsOf = (stats: unknown): unknown =>
  (stats as { usage_to_metrics?: { agent?: unknown } } | null | undefined)?.usage_to_metrics?.agent;

export const appConversationSchema = z.object({
  id: z.string(),
  created_by_user_id: z.nullable(z.string()),
  sandbox_id: z.string(),
  selected_repository: z.nullable(z.string()),
  selected_branch: z.nullable(z.string()),
  git_provider: z.nullable(z.string()),
  title: z.nullable(z.string()),
  trigger: z.nullable(z.string()),
  pr_number: z._default(z.array(integer()), []),
  llm_model: z.nullable(z.string()),
  metrics: z._default(z.nullable(metricsSchema), null),
  parent_conversation_id: z._default(z.nullable(z.string()), null),
  sub_conversation_ids: z._default(z.array(z.string()), []),
  created_at: z.string(),
  updated_at: z.string(),
  sandbox_status: sandboxStatusSchema,
  execution_status: z._default(z.nullable(executionStatusSchema), null),
  conversation_url: z._default(z.nullable(z.string()), null),
  session_api_key: z._default(z.nullable(z.string()), null),
  /** Ours. */
  archived: z._default(z.boolean(), false),
  /** Ours: the skills the repository brought (`.openhands/skills/*.md`, `.openhands/microagents/*.md`). */
  skills: z._default(z.array(z.string()), []),
});
export type AppConversation = z.output<typeof appConversationSchema>;

export const appConversationPageSchema = z.object({
  items: z.array(appConversationSchema),
  next_page_id: z._default(z.nullable(z.string()), null),
});
export type AppConversationPage = z.output<typeof appConversationPageSchema>;

export const CONVERSATION_SORT_ORDERS = ['CREATED_AT', 'CREATED_AT_DESC', 'UPDATED_AT', 'UPDATED_AT_DESC', 'TITLE', 'TITLE_DESC'] as const;
export type ConversationSortOrder = (typeof CONVERSATION_SORT_ORDERS)[number];

/** A date-time in a query: ISO 8601 (a date alone is midnight UTC). */
const dateTimeQuery = z.pipe(
  z.string().check(z.refine((value) => !Number.isNaN(Date.parse(value)), { error: 'Input should be a valid datetime' })),
  z.transform((value: string) => new Date(value).toISOString()),
);

/** The filters `/search` and `/count` share, so a count counts exactly what search pages through. */
export const conversationFilterSchema = z.object({
  title__contains: z.optional(z.string()),
  created_at__gte: z.optional(dateTimeQuery),
  created_at__lt: z.optional(dateTimeQuery),
  updated_at__gte: z.optional(dateTimeQuery),
  updated_at__lt: z.optional(dateTimeQuery),
  /** Ours. */
  sandbox_id__eq: z.optional(z.string()),
  /** Ours: one user's conversations (an admin's filter; a member sees only their own anyway). */
  created_by_user_id__eq: z.optional(z.string()),
  /**
   * Ours: archived conversations are hidden unless asked for. A query string holds only strings: this works behind the
   * server's lax pre-pass (`laxInput`), which reads `true`, `1`, `yes`, … as Pydantic does.
   */
  archived: z._default(z.boolean(), false),
  /** Conversations a conversation started (`parent_conversation_id` set) are hidden unless asked for, as OpenHands' search hides them. */
  include_sub_conversations: z.optional(z.boolean()),
});
export type ConversationFilter = z.output<typeof conversationFilterSchema>;

export const conversationSearchQuerySchema = z.extend(pageQuerySchema, {
  ...conversationFilterSchema.shape,
  sort_order: z._default(z.enum(CONVERSATION_SORT_ORDERS), 'CREATED_AT_DESC'),
});
export type ConversationSearchQuery = z.output<typeof conversationSearchQuerySchema>;

export const TASK_SORT_ORDERS = ['CREATED_AT', 'CREATED_AT_DESC', 'UPDATED_AT', 'UPDATED_AT_DESC'] as const;

export const taskFilterSchema = z.object({
  conversation_id__eq: z.optional(conversationIdSchema),
  created_at__gte: z.optional(dateTimeQuery),
});
export type TaskFilter = z.output<typeof taskFilterSchema>;

export const taskSearchQuerySchema = z.extend(pageQuerySchema, {
  ...taskFilterSchema.shape,
  sort_order: z._default(z.enum(TASK_SORT_ORDERS), 'CREATED_AT_DESC'),
});
export type TaskSearchQuery = z.output<typeof taskSearchQuerySchema>;

/** `?ids=a&ids=b` of the batch gets. */
export const batchConversationIdsQuerySchema = z.object({ ids: repeatedQueryParam });

export const conversationIdParamsSchema = z.object({ conversation_id: z.string() });

const title = z.string().check(z.trim(), z.minLength(1), z.maxLength(200));

/** `PATCH /api/v1/app-conversations/{id}` (ours). */
export const conversationPatchSchema = z.object({ title: z.optional(title), archived: z.optional(z.boolean()) });
export type ConversationPatch = z.output<typeof conversationPatchSchema>;

/** `PATCH /api/conversations/{id}` (OpenHands' legacy rename, which its own web client uses). */
export const legacyRenameSchema = z.object({ title });

/** `GET /api/v1/app-conversations/by-sandbox?sandbox_id=…` (ours): the conversations each sandbox serves, in request order. */
export const conversationsBySandboxQuerySchema = z.object({ sandbox_id: repeatedQueryParam });
export const sandboxConversationsSchema = z.array(
  z.object({ sandbox_id: z.string(), conversations: z.array(z.object({ id: z.string(), title: z.string() })) }),
);
export type SandboxConversations = z.output<typeof sandboxConversationsSchema>;
