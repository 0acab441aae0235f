import type { OptionKind, ServerConfig } from '../../../src/contract/options';
import type { LlmPrices } from '../../llm-prices';
import type { Settings } from '../../../src/contract/settings';

/** The agent our agent server runs (it has no other). */
const AGENT_NAME = 'CodeActAgent';

/** What OpenHands' web client learns about this server first: open-source mode, no OAuth app, no analytics, no paid features. */
const SERVER_CONFIG: ServerConfig = {
  APP_MODE: 'oss',
  GITHUB_CLIENT_ID: '',
  POSTHOG_CLIENT_KEY: '',
  FEATURE_FLAGS: { ENABLE_BILLING: false, HIDE_LLM_SETTINGS: false, ENABLE_JIRA: false, ENABLE_JIRA_DC: false, ENABLE_LINEAR: false },
};

/** Settings' name for OpenHands' `LLMSecurityAnalyzer`, as OpenHands' own options list it. */
export const LLM_SECURITY_ANALYZER = 'llm';

/**
 * What Settings may choose from on this server: models it knows prices for (and the demo model),
 * the one agent its agent server runs, and OpenHands' LLM security analyzer (`llm`: the model
 * rates each action).
 */
export class OptionsService {
  constructor(
    private readonly prices: LlmPrices,
    /** Where sandboxes run: some Settings apply to containers only. */
    private readonly runtime: 'process' | 'docker' = 'process',
  ) {}

  /**
   * The Settings fields this server stores but does not act on: OpenHands Cloud's account
   * and analytics, web search (no search tool), the console's language (English only),
   * V0 conversations, the remote runtime's key and base image, and on the process runtime the
   * container image and its resource factor.
   */
  settingsNotUsed(): (keyof Settings)[] {
    const always: (keyof Settings)[] = [
      'language',
      'search_api_key',
      'sandbox_api_key',
      'sandbox_base_container_image',
      'user_consents_to_analytics',
      'email',
      'email_verified',
      'v1_enabled',
    ];
    return this.runtime === 'docker' ? always : [...always, 'sandbox_runtime_container_image', 'remote_runtime_resource_factor'];
  }

  config(): ServerConfig {
    return SERVER_CONFIG;
  }

  list(kind: OptionKind): string[] {
    switch (kind) {
      case 'models':
        return this.prices.modelNames();
      case 'agents':
        return [AGENT_NAME];
      case 'security-analyzers':
        return [LLM_SECURITY_ANALYZER];
    }
  }
}
