import type { FastifyInstance } from 'fastify';
import type { LlmProxyService } from '../services/llm-proxy/llm-proxy-service';

/** A conversation's token, as OpenAI clients send their key. */
const bearer = (header: string | undefined) => (header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined);

/** OpenAI's Chat Completions route, passed on as it is (the body unparsed, the response streamed). */
export function llmProxyRoutes(proxy: LlmProxyService) {
  return async (app: FastifyInstance) => {
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    app.post('/v1/chat/completions', async (request, reply) => {
      const aborted = new AbortController();
      // The agent gave up (paused, stopped): so does the call to the LLM.
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) aborted.abort();
      });
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const forwarded = await proxy.chatCompletions(bearer(request.headers.authorization), body, aborted.signal);
      reply.status(forwarded.status);
      if (forwarded.contentType) reply.type(forwarded.contentType);
      return reply.send(forwarded.body);
    });
  };
}
