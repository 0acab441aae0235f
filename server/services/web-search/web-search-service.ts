import { msg } from '@lingui/core/macro';
import type { DataAccess } from '../../authz/data-access';
import { asSystem } from '../../authz/caller';
import { Conflict, Unauthenticated, Unavailable, verbatim } from '../../domain-errors';
import type { Logger } from '../../logger';
import type { WebSearchRequest, WebSearchResults, WebSearchTool } from '../../agent-server/web-search-contract';
import type { LlmProxyTokens } from '../llm-proxy/llm-proxy-tokens';
import type { SettingsService } from '../settings/settings-service';
import type { TavilyApi } from './tavily-api';

const TASK = 'search the web for a conversation';

/** The search route on the LLM proxy's listener (server/routes/web-search-proxy.ts), below the proxy's `/v1`. */
export const WEB_SEARCH_PATH = '/v1/web-search';

/** A conversation whose token a search came with. */
export interface SearchingConversation {
  id: string;
  user_id: string;
}

/**
 * The agent's web search, as OpenHands gives it with a search API key in Settings (Tavily), but
 * through this server: a sandbox gets the search route's address on the LLM proxy's listener and
 * its conversation's token (the one its LLM calls carry), never the key. Each search it sends is
 * passed on to Tavily with the key its conversation's owner has in Settings, read at that moment.
 */
export class WebSearchService {
  constructor(
    private readonly data: DataAccess,
    private readonly settings: SettingsService,
    private readonly tokens: LlmProxyTokens,
    private readonly tavily: TavilyApi,
    private readonly log: Logger,
  ) {}

  /**
   * The tool a conversation's agent is given, when its owner's settings hold a search key:
   * `proxyBaseUrl` is the LLM proxy's base URL as the sandbox reaches it (ending in `/v1`).
   */
  toolFor(conversationId: string, searchKey: string | null | undefined, proxyBaseUrl: string): WebSearchTool | null {
    if (!searchKey) return null;
    return { url: `${proxyBaseUrl.replace(/\/v1$/, '')}${WEB_SEARCH_PATH}`, api_key: this.tokens.issue(conversationId) };
  }

  /** The conversation `token` was issued for; Unauthenticated for anything else, or one that is gone. */
  async conversationOf(token: string | undefined): Promise<SearchingConversation> {
    const conversationId = this.tokens.conversationOf(token);
    const conversation = conversationId === undefined ? undefined : await this.data.as(asSystem(TASK)).conversations.get(conversationId);
    if (!conversation) throw new Unauthenticated(msg`Not a token of a conversation this server has`);
    return { id: conversation.id, user_id: conversation.user_id };
  }

  /** One search for `conversation`, with its owner's search key; Tavily's refusal or absence is Unavailable, in words. */
  async search(conversation: SearchingConversation, search: WebSearchRequest, signal?: AbortSignal): Promise<WebSearchResults> {
    const stored = await this.settings.readWithSecrets(asSystem(TASK, conversation.user_id));
    const key = stored?.search_api_key;
    if (!key) throw new Conflict(msg`There is no search API key in Settings any more: web search is off until one is set again.`);
    const outcome = await this.tavily.search(key, search, signal);
    this.log.info(
      {
        conversationId: conversation.id,
        ok: outcome.ok,
        ...(outcome.ok ? { results: outcome.value.results.length } : { reason: outcome.error }),
      },
      'web search done',
    );
    if (!outcome.ok) throw new Unavailable(verbatim(outcome.error));
    return outcome.value;
  }
}
