import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { OptionKind, ServerConfig } from '../../../src/contract/options';
import type { LlmPrices } from '../../llm-prices';
import type { Settings } from '../../../src/contract/settings';
import { english } from '../../i18n/english';

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
   * The Settings fields this server stores but does not act on, each with why (a clause the
   * Settings page shows after "Not used by this server: "): analytics, V0 conversations, the
   * remote runtime's key, and on the process runtime what only containers have. In `i18n`'s language.
   */
  settingsNotUsed(i18n: I18n = english): Partial<Record<keyof Settings, string>> {
    const always: Partial<Record<keyof Settings, MessageDescriptor>> = {
      sandbox_api_key: msg`it is the key of OpenHands' remote runtime; each sandbox here gets a key of its own`,
      user_consents_to_analytics: msg`this server collects no analytics`,
      v1_enabled: msg`every conversation here runs on the V1 agent server; there are no V0 conversations`,
    };
    const reasons: typeof always =
      this.runtime === 'docker'
        ? always
        : {
            ...always,
            sandbox_base_container_image: msg`process sandboxes run on this machine, not in an image (Docker sandboxes build one on it)`,
            sandbox_runtime_container_image: msg`process sandboxes run on this machine, not in an image (Docker sandboxes start from it)`,
            remote_runtime_resource_factor: msg`process sandboxes have no memory or CPU limit to multiply (Docker sandboxes do)`,
          };
    return Object.fromEntries(Object.entries(reasons).map(([field, reason]) => [field, i18n._(reason)]));
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
