import { type WebSearchRequest, type WebSearchResults, webSearchResultsSchema } from '../../agent-server/web-search-contract';
import { rootCause, shownUrl } from '../../llm-endpoint';
import { providerWords } from '../../provider-words';

/*
 * Tavily's REST API (docs.tavily.com, "API Reference"), called with a user's key as
 * `Authorization: Bearer <key>`: `POST /search` for the agent's searches, and `GET /usage` (the
 * key's and its account's credits, free of charge) to check a key. Failures are results in words,
 * never with the key in them.
 */

/** As Tavily's SDKs: a search may take a minute. */
const SEARCH_TIMEOUT_MS = 60_000;
/** As the LLM test. */
export const KEY_CHECK_SECONDS = 20;
const MAX_WORDS = 160;

export type TavilyOutcome<T> = { ok: true; value: T } | { ok: false; error: string };

/** What Tavily said when it refused: `{"detail": {"error": …}}` (what its SDKs read), FastAPI's `{"detail": …}`, or another JSON error's words. */
function tavilyWords(body: unknown): string {
  const detail = body && typeof body === 'object' ? (body as { detail?: unknown }).detail : undefined;
  const nested = detail && typeof detail === 'object' ? (detail as { error?: unknown }).error : detail;
  if (typeof nested !== 'string') return providerWords(body);
  const words = nested.replace(/\s+/g, ' ').trim();
  return words.length > MAX_WORDS ? `${words.slice(0, MAX_WORDS - 1)}…` : words;
}

function describeRefusal(status: number, body: unknown): string {
  const said = tavilyWords(body);
  const http = `HTTP ${status}${said ? `: ${said}` : ''}`;
  if (status === 401 || status === 403) return `Tavily refused the search API key (${http}).`;
  // 432 and 433: the plan's or the pay-as-you-go limit is used up.
  if (status === 429 || status === 432 || status === 433) return `Tavily refused for now: rate or usage limit (${http}).`;
  return `Tavily responded with ${http}.`;
}

const masked = (text: string, key: string) => (key ? text.replaceAll(key, '***') : text);

export class TavilyApi {
  constructor(
    /** TAVILY_API_URL: Tavily's own, or a stand-in's. */
    private readonly baseUrl: string,
    private readonly timeouts = { searchMs: SEARCH_TIMEOUT_MS, checkMs: KEY_CHECK_SECONDS * 1000 },
  ) {}

  /** One search with `key`; `signal` ends it early (the agent gave up). */
  async search(key: string, search: WebSearchRequest, signal?: AbortSignal): Promise<TavilyOutcome<WebSearchResults>> {
    const answer = await this.#call('POST', '/search', key, search, this.timeouts.searchMs, signal);
    if (!answer.ok) return answer;
    const results = webSearchResultsSchema.safeParse(answer.value);
    return results.success
      ? { ok: true, value: results.data }
      : { ok: false, error: 'Tavily responded with something other than search results.' };
  }

  /** Whether Tavily accepts `key` (its usage, which costs no credit). */
  async checkKey(key: string): Promise<TavilyOutcome<null>> {
    const answer = await this.#call('GET', '/usage', key, undefined, this.timeouts.checkMs);
    return answer.ok ? { ok: true, value: null } : answer;
  }

  async #call(
    method: 'GET' | 'POST',
    path: string,
    key: string,
    body: unknown,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<TavilyOutcome<unknown>> {
    const url = `${this.baseUrl}${path}`;
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      // undici's request, not fetch: fetch refuses ports browsers block, where a stand-in may listen.
      // Loaded at the first call, not at every server start.
      const { request } = await import('undici');
      const response = await request(url, {
        method,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      const parsed: unknown = await response.body.json().catch(() => undefined);
      if (response.statusCode >= 200 && response.statusCode < 300) return { ok: true, value: parsed };
      return { ok: false, error: masked(describeRefusal(response.statusCode, parsed), key) };
    } catch (error) {
      if (signal?.aborted) throw error;
      const where = shownUrl(url);
      const words = timeout.aborted
        ? `No response from Tavily at ${where} within ${Math.round(timeoutMs / 1000)} seconds.`
        : `Cannot reach Tavily at ${where} (${rootCause(error)}).`;
      return { ok: false, error: masked(words, key) };
    }
  }
}
