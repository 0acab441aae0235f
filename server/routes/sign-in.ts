import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { browserSessionResultSchema, signInBodySchema } from '../../src/contract/browser-session';
import { detailErrorSchema } from '../../src/contract/errors';
import type { BrowserSessions } from '../services/sessions/browser-sessions';
import {
  clearSessionCookie,
  cookieFreeHostAlternative,
  fromOwnOrigin,
  registerSessionCookie,
  setSessionCookie,
} from '../http/session-cookie';
import { isSignedIn, sessionProofOf } from '../http/auth';
import { sessionKeyCheck } from '../session-key';
import { STRICT_CONTENT_SECURITY_POLICY } from './console';
import { type SignInPageState, signInPage } from './sign-in-page';

const FORM = 'application/x-www-form-urlencoded';
const isForm = (request: FastifyRequest) => String(request.headers['content-type'] ?? '').startsWith(FORM);

/** How long a wrong key waits for its response: guessing gets slow, nothing else waits. */
const WRONG_KEY_DELAY_MS = 400;

/** The sign-in page: ours whatever console is served, so always under the strict policy. */
const sendPage = (reply: FastifyReply, status: number, state?: SignInPageState) =>
  reply
    .status(status)
    .header('content-security-policy', STRICT_CONTENT_SECURITY_POLICY)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(signInPage(state));

export interface SignInOptions {
  sessionKey: string;
  browserSessions: BrowserSessions;
  /** COOKIE_SECURE: the cookie is Secure even when the page's Origin does not say https (behind a TLS proxy). */
  cookieSecure: boolean;
}

/**
 * `/sign-in` and `/sign-out`: the session cookie for a browser page, whatever console the server
 * serves. The page is a plain form (no script), so it works under any policy; our console posts
 * JSON here when it signs in. Both refuse other origins, so no other page can sign a browser in or out.
 */
export function signInRoutes({ sessionKey, browserSessions, cookieSecure }: SignInOptions): FastifyPluginAsyncZod {
  const matches = sessionKeyCheck(sessionKey);
  const proofOf = sessionProofOf(sessionKey, browserSessions);
  return async (app) => {
    await registerSessionCookie(app);
    app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    app.get('/sign-in', { schema: { hide: true } }, async (request, reply) =>
      sendPage(reply, 200, { elsewhere: cookieFreeHostAlternative(request) }),
    );

    app.post(
      '/sign-in',
      {
        schema: {
          summary: 'Sign a browser in: sets the HttpOnly session cookie when `key` is the session key',
          tags: ['Session'],
          security: [],
          consumes: ['application/json', FORM],
          body: signInBodySchema,
          response: { 200: browserSessionResultSchema, 401: detailErrorSchema, 403: detailErrorSchema, 409: detailErrorSchema },
        },
      },
      async (request, reply) => {
        if (!fromOwnOrigin(request)) return reply.status(403).send({ detail: 'Sign-in is accepted only from pages of this server' });
        const elsewhere = cookieFreeHostAlternative(request);
        if (elsewhere) {
          if (isForm(request)) return sendPage(reply, 409, { elsewhere });
          return reply.status(409).send({
            detail: `Open ${elsewhere}/sign-in to get the session cookie: on 127.0.0.1 it would also reach the sandboxes. The key header still works here.`,
          });
        }
        if (!matches(request.body.key.trim())) {
          await sleep(WRONG_KEY_DELAY_MS);
          if (isForm(request)) return sendPage(reply, 401, { error: 'That key was not accepted. Check it and try again.' });
          return reply.status(401).send({ detail: 'Unauthorized' });
        }
        await setSessionCookie(reply, sessionKey, browserSessions, cookieSecure);
        reply.header('cache-control', 'no-store');
        if (isForm(request)) return reply.redirect('/', 303);
        return { success: true };
      },
    );

    app.post(
      '/sign-out',
      {
        schema: {
          summary:
            'Sign browsers out: removes the session cookie and, for a signed-in request (cookie or key), ends every cookie session (all browsers, all instances)',
          tags: ['Session'],
          security: [],
          response: { 200: browserSessionResultSchema, 401: detailErrorSchema, 403: detailErrorSchema },
        },
      },
      async (request, reply) => {
        if (!fromOwnOrigin(request)) return reply.status(403).send({ detail: 'Sign-out is accepted only from pages of this server' });
        clearSessionCookie(reply, cookieSecure);
        // Ending sessions writes the database and signs everyone out: not for whoever merely asks.
        if (!isSignedIn(await proofOf(request))) {
          if (isForm(request)) return reply.redirect('/sign-in', 303);
          return reply.status(401).send({ detail: 'Not signed in: no session to end' });
        }
        // The cookie holds no user: ending one session means ending them all.
        await browserSessions.endAll();
        if (isForm(request)) return reply.redirect('/sign-in', 303);
        return { success: true };
      },
    );
  };
}
