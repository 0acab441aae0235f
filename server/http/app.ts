import type { AddressInfo } from 'node:net';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { responseSerializerCompiler } from './response-serializer';
import { SESSION_KEY_HEADER } from './auth';
import { registerHostCheck } from './host-check';
import { registerErrorHandling } from './errors';
import type { Logger } from '../logger';
import { registerJsonBodyParser } from './json-body';
import { endConnectionsAfterClose } from './close-connections';
import { keptBesideTheBuild, openApiDocumentHandler } from './openapi-document';
import { type ApiOptions, apiRoutes } from '../routes/api';
import { registerConsole } from '../routes/console';
import { healthRoutes } from '../routes/health';
import { metricsRoutes } from '../routes/metrics';
import { registerRequestMetrics } from './request-metrics';
import { signInRoutes } from '../routes/sign-in';
import { identityProviderSignInRoutes } from '../routes/identity-provider-sign-in';
import { zodValidatorCompiler } from './validation';
import { buildLlmProxyApp } from './llm-proxy-app';
import { SETTINGS_NOT_USED_EXTENSION } from '../../src/contract/settings-not-used';

export interface AppOptions extends ApiOptions {
  /** The built console; the API works without it. */
  consoleDir: string;
  /** The server's logger (see `createLogger`); requests are logged at `debug`. */
  log: Logger;
  /** The Content-Security-Policy of the console's pages (CONSOLE_CSP); the strict one when absent. */
  consoleContentSecurityPolicy?: string;
  /** Names (Host header) the server responds to besides loopback ones: HOST, ALLOWED_HOSTS, the one sent to sandboxes. */
  allowedHosts?: string[];
  /** COOKIE_SECURE: the session cookie is always Secure. */
  cookieSecure?: boolean;
  /** Encode `builtToSchema` responses with their schema too and fail those that differ (tests). */
  checkBuiltResponses?: boolean;
  /** METRICS_TOKEN: a key that reads `GET /metrics` and nothing else; without it only owners' and admins' keys do. */
  metricsToken?: string;
  /** Run last when the app closes, after the services stopped: what they still write to (the database). */
  afterClose?: () => Promise<void>;
}

export const BODY_LIMIT_BYTES = 1024 * 1024;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  // Typed as Fastify's logger, so the app keeps the instance type its plugins are written for.
  const loggerInstance: FastifyBaseLogger = options.log;
  const app = Fastify({
    loggerInstance,
    bodyLimit: BODY_LIMIT_BYTES,
    // The console polls; a line per request drowns what matters. LOG_LEVEL=debug brings them back.
    logController: new LogController({ disableRequestLogging: !options.log.isLevelEnabled('debug') }),
  });
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ checked: options.checkBuiltResponses ?? false }));
  // Before any route is registered, so every response is counted, the host check's refusals too.
  registerRequestMetrics(app, options.services.metrics.requests);
  registerHostCheck(app, options.allowedHosts ?? []);
  registerJsonBodyParser(app);
  registerErrorHandling(app);
  endConnectionsAfterClose(app);

  // What the OpenAPI document is made of besides the code: the routes registered.
  const routes: string[] = [];
  app.addHook('onRoute', (route) => void routes.push(`${[route.method].flat().join(',')} ${route.url}`));
  const swaggerDocument = keptBesideTheBuild(
    () => app.swagger(),
    () => routes,
  );
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Agent Conversation Service (Agent Console reference server)',
        version: '0.1.0',
        description: 'The OpenHands-compatible API served by the Agent Console reference server.',
        // An OpenAPI extension: spread, as the document's types know no `x-` keys.
        ...{ [SETTINGS_NOT_USED_EXTENSION]: options.services.options.settingsNotUsed() },
      },
      components: { securitySchemes: { SessionApiKey: { type: 'apiKey', in: 'header', name: SESSION_KEY_HEADER } } },
      security: [{ SessionApiKey: [] }],
    },
    transform: jsonSchemaTransform,
  });
  app.get(
    '/openapi.json',
    { schema: { hide: true } },
    openApiDocumentHandler((i18n) => {
      const document = swaggerDocument();
      const notUsed = options.services.options.settingsNotUsed(i18n);
      return { ...document, info: { ...document.info, [SETTINGS_NOT_USED_EXTENSION]: notUsed } };
    }),
  );

  await app.register(healthRoutes);
  await app.register(
    metricsRoutes({
      metrics: options.services.metrics,
      sessionKey: options.sessionKey,
      identities: options.services.identities,
      metricsToken: options.metricsToken,
    }),
  );
  await app.register(apiRoutes(options), { prefix: '/api' });
  await app.register(
    signInRoutes({
      sessionKey: options.sessionKey,
      browserSessions: options.services.browserSessions,
      cookieSecure: options.cookieSecure ?? false,
      team: options.services.team,
      identities: options.services.identities,
    }),
  );
  if (options.services.identityProvider) {
    await app.register(
      identityProviderSignInRoutes({
        provider: options.services.identityProvider,
        sessionKey: options.sessionKey,
        browserSessions: options.services.browserSessions,
        cookieSecure: options.cookieSecure ?? false,
      }),
    );
  }
  // The LLM proxy on ports of its own: sandboxes reach its routes (the LLM, web search), not the API.
  await options.services.llmProxy.serve(async (host) => {
    const llmProxy = await buildLlmProxyApp(options.services.llmProxy, options.services.webSearch, options.log);
    await llmProxy.listen({ host, port: 0 });
    return { port: (llmProxy.server.address() as AddressInfo).port, close: () => llmProxy.close() };
  });
  app.addHook('onClose', async () => {
    options.services.audit.close();
    options.services.browserSessions.close();
    await options.services.llmProxy.close();
    await options.services.mcpTest.close();
    await options.services.startTasks.close();
    await options.services.collector.close();
    await options.services.events.stopNotices();
    // Sandboxes outlive the server, like containers outlive their engine's client: only the watching stops.
    await options.services.sandboxes.close();
    // Here, not in a hook of its own: Fastify runs a later hook first.
    await options.afterClose?.();
  });
  await registerConsole(app, options.consoleDir, options.consoleContentSecurityPolicy);
  return app;
}
