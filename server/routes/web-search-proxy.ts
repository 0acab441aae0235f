import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type WebSearchRequest, webSearchRequestSchema } from '../agent-server/web-search-contract';
import { type SearchingConversation, WEB_SEARCH_PATH, type WebSearchService } from '../services/web-search/web-search-service';

/** A conversation's token, as the agent sends it. */
const bearer = (header: string | undefined) => (header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined);

/**
 * The agent's web search: Tavily's search request, passed on with the owner's key (on the LLM
 * proxy's listener, which sandboxes reach). The token is checked before the body is read.
 */
export function webSearchProxyRoutes(search: WebSearchService) {
  return async (app: FastifyInstance) => {
    const callers = new WeakMap<FastifyRequest, SearchingConversation>();
    app.post(
      WEB_SEARCH_PATH,
      {
        onRequest: async (request) => {
          callers.set(request, await search.conversationOf(bearer(request.headers.authorization)));
        },
        schema: { body: webSearchRequestSchema },
      },
      async (request, reply) => {
        const aborted = new AbortController();
        // The agent gave up (Stop): so does the search.
        reply.raw.on('close', () => {
          if (!reply.raw.writableFinished) aborted.abort();
        });
        return search.search(callers.get(request)!, request.body as WebSearchRequest, aborted.signal);
      },
    );
  };
}
