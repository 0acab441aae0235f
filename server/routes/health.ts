import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';

/** Liveness endpoints, open without a key (OpenHands returns the same shapes). */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/alive',
    { schema: { summary: 'Liveness', tags: ['Health'], response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );
  // OpenHands returns the JSON string "OK"; Fastify would send a returned string as plain text.
  app.get('/health', { schema: { summary: 'Health (the JSON string "OK")', tags: ['Health'] } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(JSON.stringify('OK')),
  );
};
