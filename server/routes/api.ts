import { msg } from '@lingui/core/macro';
import cors from '@fastify/cors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireCaller, SESSION_KEY_HEADER } from '../http/auth';
import { NotFound } from '../domain-errors';
import { originAllowed } from '../http/host-check';
import type { ApiServices } from '../services/create-services';
import { conversationAgentRoutes } from './conversation-agent';
import { conversationRoutes } from './conversations';
import { eventRoutes } from './events';
import { gitUserRoutes } from './git-user';
import { legacyConversationRoutes } from './legacy-conversations';
import { llmRoutes } from './llm';
import { mcpRoutes } from './mcp';
import { optionsRoutes } from './options';
import { sandboxRoutes } from './sandboxes';
import { searchRoutes } from './search';
import { secretsRoutes } from './secrets';
import { settingsRoutes } from './settings';
import { solvabilityRoutes } from './solvability';
import { teamRoutes } from './team';
import { usageRoutes } from './usage';
import { workspaceRoutes } from './workspace';
import { auditRoutes } from './audit';

export interface ApiOptions {
  sessionKey: string;
  services: ApiServices;
  /** Browser origins besides http(s) loopback ones that may call the API. */
  corsOrigins?: string[];
  /** The most an event stream holds for a client that reads slower than its frames come: MAX_BUFFERED_BYTES but in tests. */
  eventStreamBufferBytes?: number;
}

/**
 * Everything under `/api`. Who the request is, and whether they may call the route, is checked for
 * every request in this scope, unknown paths included, before the body is read. Only CORS preflights (which browsers send without
 * custom headers) get their response before that, from the CORS hook registered first.
 */
export function apiRoutes({ sessionKey, services, corsOrigins = [], eventStreamBufferBytes }: ApiOptions): FastifyPluginAsyncZod {
  return async (api) => {
    const isAllowed = originAllowed(corsOrigins);
    await api.register(cors, {
      origin: (origin, done) => done(null, isAllowed(origin)),
      allowedHeaders: ['content-type', 'authorization', SESSION_KEY_HEADER.toLowerCase()],
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      strictPreflight: true,
      maxAge: 600,
    });
    api.addHook('onRequest', requireCaller(sessionKey, services.browserSessions, services.identities));
    api.addHook('onSend', (_request, reply, _payload, done) => {
      reply.header('cache-control', 'no-store');
      done();
    });
    api.setNotFoundHandler(() => {
      throw new NotFound(msg`Not Found`);
    });
    await api.register(settingsRoutes(services.settings));
    await api.register(llmRoutes(services.llmTest));
    await api.register(mcpRoutes(services.mcpTest));
    await api.register(searchRoutes(services.searchKeyTest));
    await api.register(optionsRoutes(services.options));
    await api.register(secretsRoutes(services.secrets));
    await api.register(sandboxRoutes(services.sandboxes));
    await api.register(conversationRoutes(services.conversations, services.startTasks));
    await api.register(legacyConversationRoutes(services.conversations));
    await api.register(gitUserRoutes(services.gitUser));
    await api.register(solvabilityRoutes(services.solvability));
    await api.register(conversationAgentRoutes(services.agents, services.events, eventStreamBufferBytes));
    await api.register(workspaceRoutes(services.workspaces));
    await api.register(eventRoutes(services.events, services.sandboxes));
    await api.register(teamRoutes(services.team, services.apiKeys, services.settings));
    await api.register(auditRoutes(services.audit));
    await api.register(usageRoutes(services.usage, services.sandboxResources));
  };
}
