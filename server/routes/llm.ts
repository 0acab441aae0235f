import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { llmTestRequestSchema, llmTestResultSchema } from '../../src/contract/llm-test';
import { validationErrorBodySchema } from '../../src/contract/validation-detail';
import type { LlmTestService } from '../services/settings/llm-test-service';

export function llmRoutes(tester: LlmTestService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/llm/test',
      {
        schema: {
          summary: 'Test LLM settings with one tiny chat request (our extension)',
          description:
            '`api_key: null` uses the stored key, `""` sends none. Failures return 200 with `ok: false` and the reason in words; the key is never part of a response.',
          tags: ['Settings'],
          body: llmTestRequestSchema,
          response: { 200: llmTestResultSchema, 422: validationErrorBodySchema },
        },
      },
      async (request) => tester.test(request.caller, request.body),
    );
  };
}
