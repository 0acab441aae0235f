import type { Generated } from 'kysely';

/** Tables as Kysely sees them. Each migration in `migrations.ts` moves this shape forward. */
export interface Database {
  user_settings: UserSettingsTable;
  server_meta: ServerMetaTable;
  provider_tokens: ProviderTokensTable;
  custom_secrets: CustomSecretsTable;
  sandboxes: SandboxesTable;
  app_conversations: AppConversationsTable;
  start_tasks: StartTasksTable;
  conversation_events: ConversationEventsTable;
  server_instances: ServerInstancesTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  llm_calls: LlmCallsTable;
  audit_log: AuditLogTable;
  sandbox_runs: SandboxRunsTable;
  conversation_starts: ConversationStartsTable;
  browser_sessions: BrowserSessionsTable;
}

/** The server instances on this database (one with SQLite; several with PostgreSQL). */
export interface ServerInstancesTable {
  /** Stable per data dir (DATA_DIR/instance-id), so a restarted instance owns its sandboxes again. */
  id: string;
  /** Where the other instances reach its API (INSTANCE_URL, else where it listens); null until it listens. */
  address: string | null;
  started_at: string;
  /** Written every few seconds while it runs: an old one means it has gone quiet. */
  heartbeat_at: string;
  /** When it stopped on purpose; null while it runs (or when it died). */
  stopped_at: string | null;
}

/** One event of a conversation, as an agent server sent it, stored once (by its id). */
export interface ConversationEventsTable {
  seq: Generated<number>;
  user_id: string;
  conversation_id: string;
  event_id: string;
  kind: string;
  source: string;
  /** UTC ISO 8601, for filtering and sorting (the event's own `timestamp` stays in `body`). */
  timestamp: string;
  /** The event as JSON. */
  body: string;
}

/** A conversation as stored; its live state (sandbox and agent status) is looked up when it is returned. */
export interface AppConversationsTable {
  id: string;
  user_id: string;
  sandbox_id: string;
  /** 1 when this conversation's start task created its sandbox (a delete then removes it too, if unused). */
  sandbox_created: number;
  selected_repository: string | null;
  selected_branch: string | null;
  git_provider: string | null;
  title: string;
  trigger: string | null;
  /** JSON list of numbers. */
  pr_number: string;
  llm_model: string | null;
  /** JSON `MetricsSnapshot`, or null. */
  metrics: string | null;
  parent_conversation_id: string | null;
  /** JSON list of skill names. */
  skills: string;
  archived: number;
  created_at: string;
  updated_at: string;
  /** The workspace's absolute path in the sandbox; null for conversations started before it was recorded. */
  working_dir: string | null;
}

/** A start task, saved at each step so a client can follow it (and a restart finds it). */
export interface StartTasksTable {
  id: string;
  user_id: string;
  status: string;
  detail: string | null;
  app_conversation_id: string | null;
  sandbox_id: string | null;
  agent_server_url: string | null;
  /** The `AppConversationStartRequest` as JSON. */
  request: string;
  created_at: string;
  updated_at: string;
  /** The server instance that runs it; null for tasks from before instances were recorded. */
  owner_instance: string | null;
}

/**
 * The sandbox registry: every process the server started, so it can find them again after a
 * restart. `pid` with `process_start` names one process for good (pids get reused).
 */
export interface SandboxesTable {
  id: string;
  spec_id: string;
  port: number;
  /** Sealed. */
  session_key: string;
  pid: number | null;
  process_start: string | null;
  created_at: string;
  /** Last start or resume: the start timeout counts from here. */
  started_at: string;
  /** Why it is not running when it should be: a spawn error or how it exited. */
  exit_detail: string | null;
  /**
   * The image whose own command it runs (a container from the Settings image or a spec's image),
   * named when that never responds on /alive; `null` when a spec's command runs (or no image: a process).
   */
  image: string | null;
  /** The server instance whose runtime runs it (see `server_instances`); null before one claimed it. */
  owner_instance: string | null;
  /**
   * The conversation whose start made it (null: started on its own). Such a sandbox that no
   * conversation uses is left from a stop half-way through a start or a delete: it goes at the next start.
   */
  conversation_id: string | null;
  /** JSON list of the ports its apps listen on inside it (WORKER_1, WORKER_2: app previews); null before they were. */
  worker_ports: string | null;
  /** The user it was started for ('default': the owner, who had everything before there were users). */
  created_by_user_id: Generated<string>;
}

/** One git provider's token per user; `token` is sealed. */
export interface ProviderTokensTable {
  user_id: string;
  provider: string;
  token: string;
  host: string | null;
  updated_at: string;
  /** When the provider last accepted this token for this host; null when never (or not since it changed). */
  checked_at: string | null;
}

/** Named secrets a user's agent gets as environment variables; `value` is sealed. */
export interface CustomSecretsTable {
  user_id: string;
  name: string;
  value: string;
  description: string;
  created_at: string;
  /** Insertion order (the list's order); timestamps can tie within a millisecond. */
  seq: number;
}

/** Facts about the installation itself, such as the secrets key check. */
export interface ServerMetaTable {
  key: string;
  value: string;
}

export interface UserSettingsTable {
  user_id: string;
  /** The settings as JSON; secret values inside are sealed (see `SecretBox`). */
  document: string;
  updated_at: Generated<string>;
}

/** The team: the owner (id 'default', whose key is the session key) and everyone invited since. */
export interface UsersTable {
  id: string;
  /** Lower-case; null only for the owner until they give one. */
  email: string | null;
  name: string | null;
  /** 'owner' | 'admin' | 'member' */
  role: string;
  /** 'active' | 'invited' | 'disabled' */
  status: string;
  /** Argon2id (PHC string); null until an invitation is accepted, and for the owner who signs in with the key. */
  password_hash: string | null;
  created_at: string;
  last_sign_in_at: string | null;
  /** Session cookies issued before this (ISO time) are refused: sign-out, disable, role and password changes set it. */
  sessions_since: string | null;
  invited_by: string | null;
  /** SHA-256 of the one-time invitation token (the link holds the token); null once used. */
  invitation_hash: string | null;
  invitation_expires_at: string | null;
  /** Per-user sandbox limits set by admins; null: only the server-wide ones. */
  max_running_sandboxes: number | null;
  max_sandboxes: number | null;
  /** 1 once an identity provider vouched for `email` at a sign-in (OIDC `email_verified`); 0 otherwise. */
  email_verified: Generated<number>;
  /** Dollars of LLM calls a calendar month (UTC) an admin allows them; null: no limit. */
  monthly_cost_limit: number | null;
}

/** API keys: only their SHA-256 is stored (they are random, so a fast hash is enough). */
export interface ApiKeysTable {
  id: Generated<number>;
  user_id: string;
  name: string | null;
  /** The key's first characters, so a user can tell keys apart. */
  prefix: string;
  key_hash: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

/** One LLM call an agent made through the LLM proxy: whose, for which conversation, what it used. */
export interface LlmCallsTable {
  id: Generated<number>;
  user_id: string;
  conversation_id: string;
  /** The model the request named, as sent. */
  model: string | null;
  /** The LLM's HTTP status. */
  status: number;
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_tokens: number;
  /** Dollars at the model's price; `null` for a model without one. */
  cost: number | null;
  created_at: string;
}

/**
 * The audit log: append-only, one chain. Each entry's `hash` is SHA-256 over its canonical form
 * and `prev_hash` (the entry before it's `hash`), so a changed, removed or inserted row shows.
 */
export interface AuditLogTable {
  /** 1, 2, 3… in the order written: the chain's order. */
  seq: number;
  id: string;
  time: string;
  user_id: string | null;
  user_name: string | null;
  auth_method: string | null;
  api_key_name: string | null;
  ip: string | null;
  action: string;
  resource_type: string;
  resource_id: string | null;
  resource_target: string | null;
  /** 'done' | 'refused' | 'failed' */
  result: string;
  reason: string | null;
  /** JSON `{field: {old, new, secret}}`; a secret's values are never written. */
  diff: string;
  prev_hash: string;
  hash: string;
}

/** A stretch of time one sandbox ran (see migration 0021). */
export interface SandboxRunsTable {
  id: Generated<number>;
  sandbox_id: string;
  /** Whose sandbox it is. */
  user_id: string;
  /** `process` or `docker`. */
  runtime: string;
  started_at: string;
  /** When it stopped; while `open`, when it was last seen running. */
  ended_at: string;
  /** 1 while it runs. */
  open: number;
}

/** A conversation started (its start task begun), kept after the conversation goes. */
export interface ConversationStartsTable {
  id: Generated<number>;
  user_id: string;
  conversation_id: string;
  created_at: string;
}

/**
 * The browser sessions (cookies) given and not yet ended, for the audit log alone: a cookie is
 * checked on its own signature and its user's `sessions_since`, never against this table. A row
 * goes when its session ends (expired, signed out, revoked), and its end is recorded then.
 */
export interface BrowserSessionsTable {
  id: string;
  user_id: string;
  /** The API key the browser signed in with, if it did (the session ends with it). */
  key_id: number | null;
  /** When its cookie was issued (the cookie's own time). */
  issued_at: string;
  /** When it ends unless ended before: its cookie's Max-Age, or its key's expiry if sooner. */
  expires_at: string;
}
