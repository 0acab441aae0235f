import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { OptionKind } from '../../contract/options';
import type { SECRET_FIELDS, Settings } from '../../contract/settings';
import { LANGUAGES, LLM_MODEL_SUGGESTIONS } from './suggestions';

/*
 * Every field of the Settings form, declared once: how it is edited (its kind), where it shows
 * (its section) and what it says. The form values, their conversion from and to the API, the
 * sections and the secret lists are all derived from this table, in its order.
 */

export const SECTIONS = {
  llm: { title: msg`LLM`, description: msg`The model the agent thinks with and how to reach it.` },
  agent: { title: msg`Agent`, description: msg`How the agent works through a task.` },
  sandbox: { title: msg`Sandbox`, description: msg`Where the agent's commands run.` },
  git: { title: msg`Git identity`, description: msg`The author of the agent's commits.` },
  search: { title: msg`Search`, description: msg`Web search for the agent (Tavily).` },
  preferences: { title: msg`Preferences`, description: undefined },
  account: { title: msg`Account`, description: undefined },
} as const satisfies Record<string, { title: MessageDescriptor; description: MessageDescriptor | undefined }>;

export type SectionId = keyof typeof SECTIONS;

interface Common {
  label: MessageDescriptor;
  section: SectionId;
  help?: MessageDescriptor;
}

/** The kinds of input a setting can have; each decides the form value and the wire value. */
export type FieldSpec = Common &
  (
    | { kind: 'text'; type?: 'text' | 'url' | 'email'; placeholder?: string; autoComplete?: string }
    /** `suggestionsFrom`: the server's list (`/api/options/<kind>`) adds to `suggestions`. */
    | { kind: 'suggest'; placeholder?: string; suggestions: string[]; suggestionsFrom?: OptionKind }
    /** `placeholder` names the empty choice; `optionsFrom`: the choices are the server's list. */
    | { kind: 'select'; placeholder?: MessageDescriptor; options: { value: string; label: string }[]; optionsFrom?: OptionKind }
    | { kind: 'number'; unit?: string }
    | { kind: 'switch' }
    | { kind: 'secret' }
  );

/**
 * Every setting the form edits: all but the MCP servers, which have their own page, and the
 * account's email, which the page shows as the server says it (`deferred/account-email.tsx`).
 */
export type SettingsFormField = Exclude<keyof Settings, 'mcp_config' | 'email' | 'email_verified'>;

export const SETTINGS_FIELDS = {
  llm_model: {
    kind: 'suggest',
    section: 'llm',
    label: msg`LLM model`,
    help: msg`provider/model, as LiteLLM names it`,
    placeholder: 'anthropic/claude-sonnet-4-5-20250929',
    suggestions: LLM_MODEL_SUGGESTIONS,
    suggestionsFrom: 'models',
  },
  llm_base_url: {
    kind: 'text',
    section: 'llm',
    label: msg`LLM base URL`,
    type: 'url',
    help: msg`Leave empty for the provider's own endpoint. Docker sandboxes reach localhost and 127.0.0.1 as host.docker.internal (the server rewrites it)`,
    placeholder: 'https://api.example.com/v1',
  },
  llm_api_key: { kind: 'secret', section: 'llm', label: msg`LLM API key` },
  max_budget_per_task: {
    kind: 'number',
    section: 'llm',
    label: msg`Max budget per task`,
    help: msg`In US dollars; empty for no limit`,
    unit: '$',
  },
  agent: { kind: 'select', section: 'agent', label: msg`Agent`, placeholder: msg`Server default`, options: [], optionsFrom: 'agents' },
  max_iterations: {
    kind: 'number',
    section: 'agent',
    label: msg`Max iterations`,
    help: msg`Steps before the agent stops; empty for the server default`,
  },
  security_analyzer: {
    kind: 'select',
    section: 'agent',
    label: msg`Security analyzer`,
    help: msg`Rates risky actions when confirmation mode is on`,
    placeholder: msg`None`,
    options: [],
    optionsFrom: 'security-analyzers',
  },

  condenser_max_size: {
    kind: 'number',
    section: 'agent',
    label: msg`Condenser max size`,
    help: msg`Events kept before the history is condensed (at least 20)`,
  },
  confirmation_mode: { kind: 'switch', section: 'agent', label: msg`Confirmation mode`, help: msg`Ask before the agent runs an action` },
  enable_default_condenser: {
    kind: 'switch',
    section: 'agent',
    label: msg`Default condenser`,
    help: msg`Summarise long histories to stay within the context window`,
  },
  v1_enabled: { kind: 'switch', section: 'agent', label: msg`V1 conversations`, help: msg`Run new conversations on the V1 agent server` },
  sandbox_base_container_image: {
    kind: 'text',
    section: 'sandbox',
    label: msg`Sandbox base image`,
    help: msg`New Docker sandboxes of the default spec run an image built on it (an image on the engine with /bin/sh, bash and git); the runtime image wins`,
    placeholder: 'nikolaik/python-nodejs:python3.12-nodejs22',
  },
  sandbox_runtime_container_image: {
    kind: 'text',
    section: 'sandbox',
    label: msg`Sandbox runtime image`,
    help: msg`New Docker sandboxes of the default spec start from it; it must run the agent server. Empty: the default image`,
    placeholder: 'ghcr.io/openhands/runtime:latest',
  },
  remote_runtime_resource_factor: {
    kind: 'number',
    section: 'sandbox',
    label: msg`Remote runtime resource factor`,
    help: msg`Multiplies each Docker sandbox's CPUs and memory`,
  },
  sandbox_api_key: { kind: 'secret', section: 'sandbox', label: msg`Sandbox API key` },
  git_user_name: { kind: 'text', section: 'git', label: msg`Git user name`, placeholder: 'openhands', autoComplete: 'name' },
  git_user_email: {
    kind: 'text',
    section: 'git',
    label: msg`Git user email`,
    type: 'email',
    placeholder: 'openhands@all-hands.dev',
    autoComplete: 'email',
  },
  search_api_key: { kind: 'secret', section: 'search', label: msg`Search API key` },
  language: {
    kind: 'select',
    section: 'preferences',
    label: msg`Language`,
    help: msg`What the agent answers in, and the console’s own language (it has English, Deutsch, Español, Français, 日本語 and 简体中文; others show it in English). Not set: the console follows your browser`,
    placeholder: msg`Not set`,
    options: LANGUAGES,
  },
  enable_sound_notifications: {
    kind: 'switch',
    section: 'preferences',
    label: msg`Sound notifications`,
    help: msg`Play a sound when the agent needs you`,
  },
  enable_proactive_conversation_starters: {
    kind: 'switch',
    section: 'preferences',
    label: msg`Proactive conversation starters`,
    help: msg`Suggest tasks for your repositories`,
  },
  enable_solvability_analysis: {
    kind: 'switch',
    section: 'preferences',
    label: msg`Solvability analysis`,
    help: msg`Estimate whether an issue can be solved before starting`,
  },
  user_consents_to_analytics: {
    kind: 'switch',
    section: 'preferences',
    label: msg`Analytics consent`,
    help: msg`Lets OpenHands' own web client send product analytics (PostHog); this console sends none`,
  },
} as const satisfies Record<SettingsFormField, FieldSpec>;

type Specs = typeof SETTINGS_FIELDS;
export type FieldKind = FieldSpec['kind'];
export type FieldsOfKind<K extends FieldKind> = { [F in SettingsFormField]: Specs[F]['kind'] extends K ? F : never }[SettingsFormField];

/** The fields in table order (the order the page shows them). */
export const FIELD_NAMES = Object.keys(SETTINGS_FIELDS) as SettingsFormField[];

export function fieldsOfKind<K extends FieldKind>(...kinds: K[]): FieldsOfKind<K>[] {
  return FIELD_NAMES.filter((field): field is FieldsOfKind<K> => (kinds as FieldKind[]).includes(SETTINGS_FIELDS[field].kind));
}

/** Compile time: the table's secrets are exactly the contract's write-only fields. */
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _secretsMatchContract: Exactly<FieldsOfKind<'secret'>, (typeof SECRET_FIELDS)[number]> = true;
