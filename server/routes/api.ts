import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireSessionKey } from '../auth';
import { NotFoundError } from '../errors';
import type { SettingsService } from '../services/settings-service';
import { settingsRoutes } from './settings';

export interface ApiServices {
  settings: SettingsService;
}

/**
 * Everything under `/api`. The session key is checked for every request in this scope, unknown
 * paths included, before the body is read.
 */
export function apiRoutes(sessionKey: string, services: ApiServices): FastifyPluginAsyncZod {
  return async (api) => {
    api.addHook('onRequest', requireSessionKey(sessionKey));
    api.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    api.setNotFoundHandler(() => {
      throw new NotFoundError();
    });
    await api.register(settingsRoutes(services.settings));
  };
}
