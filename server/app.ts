import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { jsonSchemaTransform, serializerCompiler } from 'fastify-type-provider-zod';
import { SESSION_KEY_HEADER } from './auth';
import { registerErrorHandling } from './errors';
import { registerJsonBodyParser } from './json-body';
import { type ApiOptions, apiRoutes } from './routes/api';
import { registerConsole } from './routes/console';
import { healthRoutes } from './routes/health';
import { zodValidatorCompiler } from './validation';

export interface AppOptions extends ApiOptions {
  /** The built console; the API works without it. */
  consoleDir: string;
  logLevel?: string | false;
}

export const BODY_LIMIT_BYTES = 1024 * 1024;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logLevel ? { level: options.logLevel } : false,
    bodyLimit: BODY_LIMIT_BYTES,
    // The console polls; a line per request drowns what matters. LOG_LEVEL=debug brings them back.
    logController: new LogController({ disableRequestLogging: options.logLevel !== 'debug' }),
  });
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerJsonBodyParser(app);
  registerErrorHandling(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Agent Conversation Service (Agent Console reference server)',
        version: '0.1.0',
        description: 'The OpenHands-compatible API served by the Agent Console reference server.',
      },
      components: { securitySchemes: { SessionApiKey: { type: 'apiKey', in: 'header', name: SESSION_KEY_HEADER } } },
      security: [{ SessionApiKey: [] }],
    },
    transform: jsonSchemaTransform,
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes);
  await app.register(apiRoutes(options), { prefix: '/api' });
  app.addHook('onClose', async () => {
    await options.services.mcpTest.close();
    // Sandboxes outlive the server, like containers outlive their engine's client: only the watching stops.
    options.services.sandboxes.close();
  });
  await registerConsole(app, options.consoleDir);
  return app;
}
