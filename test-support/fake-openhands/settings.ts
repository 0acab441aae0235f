import type { FakeOpenHandsState } from './state';

/*
 * OpenHands' legacy settings (openhands-api.md §10) as the pinned commit behaves: 404 until the
 * first POST; a POST replaces the stored settings, keeping only a few fields it is not sent; a
 * GET hides the three secret fields but sends MCP api keys in clear.
 */

/** `Settings` model defaults. */
const DEFAULTS: Record<string, unknown> = {
  language: null,
  agent: null,
  max_iterations: null,
  security_analyzer: null,
  confirmation_mode: null,
  llm_model: null,
  llm_api_key: null,
  llm_base_url: null,
  remote_runtime_resource_factor: null,
  enable_default_condenser: true,
  enable_sound_notifications: false,
  enable_proactive_conversation_starters: true,
  enable_solvability_analysis: true,
  user_consents_to_analytics: null,
  sandbox_base_container_image: null,
  sandbox_runtime_container_image: null,
  mcp_config: null,
  search_api_key: null,
  sandbox_api_key: null,
  max_budget_per_task: null,
  condenser_max_size: null,
  email: null,
  email_verified: null,
  git_user_name: null,
  git_user_email: null,
  v1_enabled: null,
};

/** The only fields a POST keeps from the stored settings when it sends them `null` or not at all. */
const KEPT_WHEN_ABSENT = ['llm_api_key', 'llm_model', 'llm_base_url', 'search_api_key', 'user_consents_to_analytics'];

const isSet = (value: unknown) => typeof value === 'string' && value.trim() !== '';

export type SettingsResponse = { status: number; body: unknown };

export function readSettings(state: FakeOpenHandsState): SettingsResponse {
  const stored = state.settings;
  if (!stored) return { status: 404, body: { error: 'Settings not found' } };
  return {
    status: 200,
    body: {
      ...stored,
      llm_api_key: null,
      search_api_key: null,
      sandbox_api_key: null,
      secrets_store: { provider_tokens: {} },
      llm_api_key_set: isSet(stored.llm_api_key),
      search_api_key_set: isSet(stored.search_api_key),
      provider_tokens_set: {},
    },
  };
}

export function storeSettings(state: FakeOpenHandsState, body: unknown): SettingsResponse {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return {
      status: 422,
      body: { detail: [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary', input: body }] },
    };
  }
  const sent = body as Record<string, unknown>;
  const size = sent.condenser_max_size;
  if (typeof size === 'number' && size < 20) {
    return {
      status: 422,
      body: {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'condenser_max_size'],
            msg: 'Value error, condenser_max_size must be at least 20',
            input: size,
            ctx: { error: {} },
          },
        ],
      },
    };
  }
  // Extra keys (the `*_set` flags a client echoes, `secrets_store`) are dropped.
  const next: Record<string, unknown> = { ...DEFAULTS };
  for (const field of Object.keys(DEFAULTS)) if (sent[field] !== undefined) next[field] = sent[field];
  for (const field of KEPT_WHEN_ABSENT) {
    if ((sent[field] === null || sent[field] === undefined) && state.settings) next[field] = state.settings[field];
  }
  // A sandbox key is stored masked: it can never be read back.
  if (isSet(next.sandbox_api_key)) next.sandbox_api_key = '**********';
  state.settings = next;
  return { status: 200, body: { message: 'Settings stored' } };
}
