import type { AgentStartConversation, AgentStartConversationInput } from '../../agent-server/contract';
import type { Subject } from '../../authz/caller';
import type { SendMessageRequest } from '../../../src/contract/conversations';
import { isProvider, type Provider } from '../../../src/contract/secrets';
import type { Settings } from '../../../src/contract/settings';
import type { LlmPrices } from '../../llm-prices';
import type { SecretsService } from '../secrets/secrets-service';
import { LLM_SECURITY_ANALYZER } from '../settings/options-service';
import type { SettingsService } from '../settings/settings-service';
import type { LlmProxyService } from '../llm-proxy/llm-proxy-service';
import type { WebSearchService } from '../web-search/web-search-service';
import { agentMcpConfig } from './agent-mcp-config';

export interface AgentConversationSpec {
  conversationId: string;
  /** Whose conversation it is (their Settings, tokens and secrets go with it): they, or the server at a task for them. */
  owner: Subject;
  /** The workspace's absolute path in the sandbox. */
  workingDir: string;
  /** The start request's model; the user's Settings name it otherwise. */
  llmModel: string | null;
  /** Only when it is first created: a re-creation after a sandbox restart sends none. */
  initialMessage: SendMessageRequest | null;
  /** When it goes on in a new sandbox: the one it was in, and its stored history. */
  continuedFrom?: AgentStartConversation['continued_from'];
  /** When the server dates the start (the demo's clock dates starts in the past). */
  startedAt?: string;
}

/**
 * How long the agent server may take to create a conversation: it starts the conversation's MCP
 * servers first (each gets 10 s to start and list its tools, side by side).
 */
export const CONVERSATION_CREATE_TIMEOUT_MS = 30_000;

/** OpenHands' default condenser's size (`get_default_condenser`), when Settings name none. */
const DEFAULT_CONDENSER_MAX_SIZE = 80;

/** The variable each provider's token is in for the agent's terminal (OpenHands' names). */
const TOKEN_VARIABLES: Record<Provider, string> = {
  github: 'GITHUB_TOKEN',
  gitlab: 'GITLAB_TOKEN',
  bitbucket: 'BITBUCKET_TOKEN',
  azure_devops: 'AZURE_DEVOPS_TOKEN',
  enterprise_sso: 'ENTERPRISE_SSO_TOKEN',
};

type Secrets = NonNullable<AgentStartConversationInput['secrets']>;

/** Git tokens and custom secrets by variable name; a custom secret of the same name wins, the user named it. */
async function terminalSecrets(secrets: SecretsService, owner: Subject): Promise<Secrets> {
  const [tokens, custom] = await Promise.all([secrets.readProviderTokens(owner), secrets.readCustomSecrets(owner)]);
  const byName: Secrets = {};
  for (const { provider, token } of tokens) {
    if (isProvider(provider)) byName[TOKEN_VARIABLES[provider]] = { kind: 'StaticSecret', value: token };
  }
  for (const { name, value } of custom) byName[name] = { kind: 'StaticSecret', value };
  return byName;
}

/** The workspace's git identity, from the names Settings give (blank ones are left out). */
function gitIdentity(settings: Settings | undefined): Record<string, string> {
  const name = settings?.git_user_name?.trim();
  const email = settings?.git_user_email?.trim();
  return {
    ...(name ? { GIT_AUTHOR_NAME: name, GIT_COMMITTER_NAME: name } : {}),
    ...(email ? { GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_EMAIL: email } : {}),
  };
}

/** OpenHands' default condenser (keeping the first 4 events) when Settings enable it, at their size. */
function condenser(settings: Settings | undefined): AgentStartConversation['agent']['condenser'] {
  if (settings && !settings.enable_default_condenser) return null;
  return { kind: 'LLMSummarizingCondenser', max_size: settings?.condenser_max_size ?? DEFAULT_CONDENSER_MAX_SIZE, keep_first: 4 };
}

/**
 * Confirmation mode and the security analyzer as OpenHands maps them: with the LLM analyzer the
 * model rates each action, and confirmation mode asks only for a HIGH one or one it did not rate
 * (`ConfirmRisky`); without it, for every action.
 */
function confirmation(settings: Settings | undefined): Pick<AgentStartConversation, 'confirmation_policy' | 'security_analyzer'> {
  const analyzer = settings?.security_analyzer === LLM_SECURITY_ANALYZER ? ({ kind: 'LLMSecurityAnalyzer' } as const) : null;
  if (!settings?.confirmation_mode) return { confirmation_policy: { kind: 'NeverConfirm' }, security_analyzer: analyzer };
  return {
    confirmation_policy: analyzer ? { kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: true } : { kind: 'AlwaysConfirm' },
    security_analyzer: analyzer,
  };
}

/**
 * What the app server POSTs to a sandbox's agent server to create (or re-create) a
 * conversation: the user's model (reached through the LLM proxy), MCP servers, web search (with a
 * search key; through this server too), limits, secrets, git identity and language from Settings,
 * read at that moment, and the model's price. Conversation starts and re-creations share it.
 */
export class AgentStartRequests {
  constructor(
    private readonly settings: SettingsService,
    private readonly secrets: SecretsService,
    private readonly prices: LlmPrices,
    /** The LLM as the sandbox reaches it: the agent gets its address and a token, never the key. */
    private readonly llmProxy: LlmProxyService,
    /** Web search as the sandbox reaches it: the agent gets the search route's address and a token, never the key. */
    private readonly webSearch: WebSearchService,
    /** A URL on this machine (an MCP server's) as the sandbox reaches it (a container: the host's loopback by its name). */
    private readonly urlFromSandbox: (url: string) => string = (url) => url,
  ) {}

  async build(spec: AgentConversationSpec): Promise<AgentStartConversationInput & Pick<AgentStartConversation, 'agent'>> {
    const [stored, secretsByName, llmUrl] = await Promise.all([
      this.settings.readWithSecrets(spec.owner),
      terminalSecrets(this.secrets, spec.owner),
      this.llmProxy.baseUrlForSandbox(),
    ]);
    const model = spec.llmModel ?? stored?.llm_model ?? null;
    const budget = stored?.max_budget_per_task;
    return {
      conversation_id: spec.conversationId,
      agent: {
        llm: { model, base_url: llmUrl, api_key: this.llmProxy.tokenFor(spec.conversationId), price: this.prices.priceOf(model) },
        mcp_config: agentMcpConfig(stored?.mcp_config, this.urlFromSandbox),
        web_search: this.webSearch.toolFor(spec.conversationId, stored?.search_api_key, llmUrl),
        condenser: condenser(stored),
      },
      workspace: { working_dir: spec.workingDir },
      ...confirmation(stored),
      initial_message: spec.initialMessage,
      max_iterations: stored?.max_iterations ?? 500,
      secrets: secretsByName,
      // Stored settings are read without the write's rules: a budget not above 0 means none.
      max_budget_per_task: budget !== null && budget !== undefined && budget > 0 ? budget : null,
      environment: gitIdentity(stored),
      language: stored?.language?.trim() || null,
      continued_from: spec.continuedFrom ?? null,
      ...(spec.startedAt !== undefined && { started_at: spec.startedAt }),
    };
  }
}
