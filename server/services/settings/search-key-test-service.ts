import type { Caller } from '../../authz/caller';
import type { SearchKeyTestRequest, SearchKeyTestResult } from '../../../src/contract/search-key-test';
import type { Logger } from '../../logger';
import type { TavilyApi } from '../web-search/tavily-api';
import type { SettingsService } from './settings-service';

/**
 * Asks Tavily (TAVILY_API_URL) whether it accepts a search key as typed in the form, the stored
 * key standing in for one not typed. Failures are results, in words; the key goes only into the
 * request's header. Unlike the LLM test, the address is the server's, never the caller's: the
 * stored key cannot be sent elsewhere.
 */
export class SearchKeyTestService {
  constructor(
    private readonly settings: SettingsService,
    private readonly tavily: TavilyApi,
    private readonly log: Logger,
  ) {}

  async test(caller: Caller, request: SearchKeyTestRequest): Promise<SearchKeyTestResult> {
    const key = request.api_key || (request.api_key === null ? (await this.settings.readWithSecrets(caller))?.search_api_key : null);
    if (!key) return { ok: false, error: 'There is no search API key to test: type one, or save one first.' };
    const outcome = await this.tavily.checkKey(key);
    this.log.info({ ok: outcome.ok, ...(outcome.ok ? {} : { reason: outcome.error }) }, 'search key test done');
    return outcome.ok ? { ok: true } : { ok: false, error: outcome.error };
  }
}
