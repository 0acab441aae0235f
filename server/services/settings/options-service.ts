import type { OptionKind, ServerConfig } from '../../../src/contract/options';
import type { LlmPrices } from '../../llm-prices';

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
  constructor(private readonly prices: LlmPrices) {}

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
