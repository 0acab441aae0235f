import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Logger } from '../logger';
import { llmProxyRoutes } from '../routes/llm-proxy';
import { webSearchProxyRoutes } from '../routes/web-search-proxy';
import type { LlmProxyService } from '../services/llm-proxy/llm-proxy-service';
import type { WebSearchService } from '../services/web-search/web-search-service';
import { registerErrorHandling } from './errors';
import { zodValidatorCompiler } from './validation';

/** A conversation's whole history goes with each call, images included. */
const LLM_REQUEST_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * A listener of the LLM proxy's: sandboxes reach its two routes (the LLM, and web search), not
 * the API. One listens on loopback, where process sandboxes reach the host, or on the Docker
 * network's gateway, where containers do (LlmProxyService.serve).
 */
export async function buildLlmProxyApp(proxy: LlmProxyService, webSearch: WebSearchService, log: Logger): Promise<FastifyInstance> {
  const loggerInstance: FastifyBaseLogger = log;
  const app = Fastify({
    loggerInstance,
    bodyLimit: LLM_REQUEST_LIMIT_BYTES,
    // Agents hold their connections open, and may be mid-call: closing ends them all.
    forceCloseConnections: true,
    logController: new LogController({ disableRequestLogging: !log.isLevelEnabled('debug') }),
  });
  registerErrorHandling(app);
  app.setValidatorCompiler(zodValidatorCompiler);
  await app.register(llmProxyRoutes(proxy));
  await app.register(webSearchProxyRoutes(webSearch));
  return app;
}
