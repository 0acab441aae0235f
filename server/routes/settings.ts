import * as z from 'zod/mini';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { builtToSchema } from '../http/response-serializer';
import { legacyErrorSchema, messageSchema } from '../../src/contract/errors';
import { settingsReadQuerySchema, settingsResponseSchema } from '../../src/contract/settings';
import { settingsUpdateRequestSchema } from '../http/requests';
import { validationErrorBodySchema } from '../../src/contract/validation-detail';
import type { SettingsService } from '../services/settings/settings-service';

export function settingsRoutes(settings: SettingsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/settings',
      {
        schema: {
          summary: 'Load settings (secret values are never returned); with absent=null, null before any are stored',
          tags: ['Settings'],
          querystring: settingsReadQuerySchema,
          response: { 200: builtToSchema(z.nullable(settingsResponseSchema)), 404: legacyErrorSchema },
        },
      },
      async (request) => (request.query.absent === 'null' ? settings.readIfStored(request.caller) : settings.read(request.caller)),
    );

    app.post(
      '/settings',
      {
        schema: {
          summary: 'Store settings (absent fields keep their value; a blank secret clears it)',
          tags: ['Settings'],
          body: settingsUpdateRequestSchema,
          response: { 200: messageSchema, 422: validationErrorBodySchema },
        },
      },
      async (request) => {
        await settings.update(request.caller, request.body);
        return { message: 'Settings stored' };
      },
    );
  };
}
