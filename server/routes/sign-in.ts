import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signInBodySchema, signInResultSchema } from '../../src/contract/browser-session';
import { detailErrorSchema } from '../../src/contract/errors';
import { clearedSessionCookieHeader, fromOwnOrigin, sessionCookieHeader } from '../session-cookie';
import { sessionKeyCheck } from '../session-key';
import { STRICT_CONTENT_SECURITY_POLICY } from './console';
import { signInPage } from './sign-in-page';

const FORM = 'application/x-www-form-urlencoded';

/** The sign-in page: ours whatever console is served, so always under the strict policy. */
const sendPage = (reply: FastifyReply, status: number, error?: string) =>
  reply
    .status(status)
    .header('content-security-policy', STRICT_CONTENT_SECURITY_POLICY)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(signInPage(error));

/**
 * `/sign-in` and `/sign-out`: the session cookie for a browser page, whatever console the server
 * serves. The page is a plain form (no script), so it works under any policy; our console posts
 * JSON here when it signs in. Both refuse other origins, so no other page can sign a browser in or out.
 */
export function signInRoutes(sessionKey: string): FastifyPluginAsyncZod {
  const matches = sessionKeyCheck(sessionKey);
  return async (app) => {
    app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    app.get('/sign-in', { schema: { hide: true } }, async (_request, reply) => sendPage(reply, 200));

    app.post(
      '/sign-in',
      {
        schema: {
          summary: 'Sign a browser in: sets the HttpOnly session cookie when `key` is the session key',
          tags: ['Session'],
          security: [],
          consumes: ['application/json', FORM],
          body: signInBodySchema,
          response: { 200: signInResultSchema, 401: detailErrorSchema, 403: detailErrorSchema },
        },
      },
      async (request, reply) => {
        const fromForm = String(request.headers['content-type'] ?? '').startsWith(FORM);
        if (!fromOwnOrigin(request)) return reply.status(403).send({ detail: 'Sign-in is accepted only from pages of this server' });
        if (!matches(request.body.key.trim())) {
          if (fromForm) return sendPage(reply, 401, 'That key was not accepted. Check it and try again.');
          return reply.status(401).send({ detail: 'Unauthorized' });
        }
        reply.header('set-cookie', sessionCookieHeader(sessionKey, request)).header('cache-control', 'no-store');
        if (fromForm) return reply.redirect('/', 303);
        return { success: true };
      },
    );

    app.post(
      '/sign-out',
      {
        schema: {
          summary: 'Sign a browser out: removes the session cookie',
          tags: ['Session'],
          security: [],
          response: { 200: signInResultSchema, 403: detailErrorSchema },
        },
      },
      async (request, reply) => {
        if (!fromOwnOrigin(request)) return reply.status(403).send({ detail: 'Sign-out is accepted only from pages of this server' });
        reply.header('set-cookie', clearedSessionCookieHeader);
        if (String(request.headers['content-type'] ?? '').startsWith(FORM)) return reply.redirect('/sign-in', 303);
        return { success: true };
      },
    );
  };
}
