import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mcpTestQuerySchema, mcpTestResultSchema } from '../../src/contract/mcp';
import { mcpTestRequestSchema } from '../http/requests';
import { validationErrorBodySchema } from '../../src/contract/validation-detail';
import type { McpTestService } from '../services/settings/mcp-test-service';

export function mcpRoutes(tester: McpTestService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/mcp/test',
      {
        schema: {
          summary: 'Test an MCP server entry: initialize, then list its tools (our extension)',
          description:
            'The body is one server entry as in mcp_config plus its `kind`. An SSE/SHTTP entry with `api_key: null` is tested with the key stored for the same kind and URL. Failures return 200 with `ok: false` and the reason.',
          tags: ['MCP'],
          querystring: mcpTestQuerySchema,
          body: mcpTestRequestSchema,
          response: { 200: mcpTestResultSchema, 422: validationErrorBodySchema },
        },
      },
      async (request) => tester.test(request.caller, request.body, request.query.timeout),
    );
  };
}
