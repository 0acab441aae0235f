import { type WebSearchResults, type WebSearchTool } from '../web-search-contract';
import type { McpTool } from './mcp';
import { type Observation, text } from './observation';

/*
 * Web search, as OpenHands gives it when Settings hold a search API key: Tavily's search tool,
 * which OpenHands adds as an MCP server with the key in its configuration. Here the key stays with
 * the app server: the tool sends its arguments (Tavily's request) to the app server's search route
 * with the conversation's token, and the app server asks Tavily. It is made an MCP tool of a
 * server named `tavily` rather than a built-in: the agent, the events (MCPToolAction and
 * MCPToolObservation) and the console already know MCP tools, so nothing new is needed to call
 * it, store it or show it; only its transport is a plain request instead of an MCP session.
 */

export const WEB_SEARCH_TOOL = 'web_search';
const SERVER = 'tavily';
/** The app server waits a minute for Tavily; a little longer here, so its answer says why. */
const CALL_TIMEOUT_MS = 75_000;

const PARAMETERS = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'What to search for.' },
    search_depth: {
      type: 'string',
      enum: ['basic', 'advanced'],
      description: "'basic' for quick results, 'advanced' for a more thorough search (costs more).",
    },
    topic: { type: 'string', enum: ['general', 'news', 'finance'], description: 'The kind of search (default general).' },
    time_range: { type: 'string', enum: ['day', 'week', 'month', 'year'], description: 'Only results from this far back.' },
    max_results: { type: 'integer', minimum: 1, maximum: 20, description: 'How many results (default 5).' },
    include_domains: { type: 'array', items: { type: 'string' }, description: 'Only results from these domains.' },
    exclude_domains: { type: 'array', items: { type: 'string' }, description: 'No results from these domains.' },
  },
  required: ['query'],
};

const observation = (blocks: string[], isError: boolean): Observation => ({
  kind: 'MCPToolObservation',
  content: blocks.flatMap(text),
  is_error: isError,
  tool_name: WEB_SEARCH_TOOL,
});

/** The results as text for the model, as Tavily's MCP server writes them. */
function resultsText(results: WebSearchResults): string {
  const lines = results.answer ? [`Answer: ${results.answer}`] : [];
  lines.push(results.results.length === 0 ? `No results for "${results.query}".` : 'Detailed Results:');
  for (const result of results.results) {
    lines.push('', `Title: ${result.title}`, `URL: ${result.url}`);
    if (result.published_date) lines.push(`Published: ${result.published_date}`);
    lines.push(`Content: ${result.content}`);
  }
  return lines.join('\n');
}

/** What the app server said when it did not search: its `detail`, or its status. */
async function refusal(response: Response): Promise<string> {
  const body: unknown = await response.json().catch(() => undefined);
  const detail = body && typeof body === 'object' ? (body as { detail?: unknown }).detail : undefined;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail))
    return detail.map((entry: { loc?: unknown[]; msg?: string }) => `${entry.loc?.slice(1).join('.')}: ${entry.msg}`).join('; ');
  return `HTTP ${response.status}`;
}

/** The web search tool for a conversation whose start request gave `config`. */
export function webSearchTool(config: WebSearchTool): McpTool {
  return {
    name: WEB_SEARCH_TOOL,
    server: SERVER,
    readOnly: true,
    definition: {
      type: 'function',
      function: {
        name: WEB_SEARCH_TOOL,
        description:
          'Search the web for current information on any topic (Tavily). Use it for news, facts, documentation or data beyond your knowledge. Returns snippets and source URLs.',
        parameters: PARAMETERS,
      },
    },
    call: async (args, signal) => {
      const timeout = AbortSignal.timeout(CALL_TIMEOUT_MS);
      try {
        const response = await fetch(config.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${config.api_key}` },
          body: JSON.stringify(args),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        if (!response.ok) return observation([`Web search failed: ${await refusal(response)}`], true);
        return observation([`[Tool '${WEB_SEARCH_TOOL}' executed.]`, resultsText((await response.json()) as WebSearchResults)], false);
      } catch (error) {
        const reason = timeout.aborted
          ? `no answer within ${CALL_TIMEOUT_MS / 1000} s`
          : error instanceof Error
            ? error.message
            : String(error);
        return observation([`Web search failed: ${reason}`], true);
      }
    },
  };
}
