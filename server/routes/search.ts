import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { searchKeyTestRequestSchema, searchKeyTestResultSchema } from '../../src/contract/search-key-test';
import { validationErrorBodySchema } from '../../src/contract/validation-detail';
import type { SearchKeyTestService } from '../services/settings/search-key-test-service';

export function searchRoutes(tester: SearchKeyTestService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/search/test',
      {
        schema: {
          summary: 'Test a search API key with Tavily (our extension)',
          description:
            "`api_key: null` uses the stored key. Asks Tavily's `GET /usage`, which costs no credit. Failures return 200 with `ok: false` and the reason in words; the key is never part of a response.",
          tags: ['Settings'],
          body: searchKeyTestRequestSchema,
          response: { 200: searchKeyTestResultSchema, 422: validationErrorBodySchema },
        },
      },
      async (request) => tester.test(request.caller, request.body),
    );
  };
}
