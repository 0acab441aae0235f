import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { browserSessionResultSchema, type SignInBody, signInBodySchema } from '../../src/contract/browser-session';
import {
  acceptInvitationBodySchema,
  invitationLinkSchema,
  invitationLookupBodySchema,
  passwordChangeSchema,
} from '../../src/contract/team';
import { validationErrorBodySchema } from '../../src/contract/validation-detail';
import { detailErrorSchema } from '../../src/contract/errors';
import type { BrowserSessions } from '../services/sessions/browser-sessions';
import {
  clearSessionCookie,
  cookieFreeHostAlternative,
  fromOwnOrigin,
  registerSessionCookie,
  type SessionHolder,
  setSessionCookie,
} from '../http/session-cookie';
import { callerOf, keyHolder } from '../http/auth';
import type { Identities } from '../services/team/identities';
import type { Caller } from '../authz/caller';
import { Unauthenticated } from '../domain-errors';
import { i18nOf } from '../i18n/server-i18n';
import type { TeamService } from '../services/team/team-service';
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
  team: TeamService;
  identities: Identities;
}

/**
 * `/sign-in` and `/sign-out`: the session cookie for a browser page, whatever console the server
 * serves. The page is a plain form (no script), so it works under any policy; our console posts
 * JSON here when it signs in. Both refuse other origins, so no other page can sign a browser in or out.
 */
export function signInRoutes({ sessionKey, browserSessions, cookieSecure, team, identities }: SignInOptions): FastifyPluginAsyncZod {
  const find = callerOf(sessionKey, browserSessions, identities);
  const byKey = keyHolder(sessionKey, identities);
  /** Whose session a sign-in body proves: the session key's owner, an API key's user (with the key), or an email and password's. */
  const holderOf = async (body: SignInBody, address: string): Promise<(SessionHolder & { caller?: Caller }) | undefined> => {
    if ('email' in body) return { userId: await team.signIn(body.email, body.password, address) };
    const caller = await byKey(body.key.trim(), address);
    if (caller === 'wrong key') {
      await team.keySignInRefused(address);
      return undefined;
    }
    return { userId: caller.userId, keyId: caller.apiKeyId, caller: { ...caller, address } };
  };
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
          summary:
            "Sign a browser in: sets the HttpOnly session cookie when `key` is the session key or an API key, or `email` and `password` are a team member's",
          tags: ['Session'],
          security: [],
          consumes: ['application/json', FORM],
          body: signInBodySchema,
          response: {
            200: browserSessionResultSchema,
            401: detailErrorSchema,
            403: detailErrorSchema,
            409: detailErrorSchema,
            503: detailErrorSchema,
          },
        },
      },
      async (request, reply) => {
        if (!fromOwnOrigin(request)) return reply.status(403).send({ detail: 'Sign-in is accepted only from pages of this server' });
        // Said before a password is checked: no hashing for a sign-in that cannot end in a session.
        const refused = browserSessions.refusedBecause;
        if (refused) {
          const detail = i18nOf(request)._(refused);
          return isForm(request) ? sendPage(reply, 409, { error: detail }) : reply.status(409).send({ detail });
        }
        const elsewhere = cookieFreeHostAlternative(request);
        if (elsewhere) {
          if (isForm(request)) return sendPage(reply, 409, { elsewhere });
          return reply.status(409).send({
            detail: `Open ${elsewhere}/sign-in to get the session cookie: on 127.0.0.1 it would also reach the sandboxes. The key header still works here.`,
          });
        }
        const holder = await holderOf(request.body, request.ip).catch((error: unknown) => {
          if (error instanceof Unauthenticated) return error;
          throw error;
        });
        if (holder === undefined || holder instanceof Unauthenticated) {
          if (holder === undefined) await sleep(WRONG_KEY_DELAY_MS);
          if (isForm(request)) return sendPage(reply, 401, { error: 'That key was not accepted. Check it and try again.' });
          return reply.status(401).send({ detail: holder?.messageIn(i18nOf(request)) ?? 'Unauthorized' });
        }
        await setSessionCookie(reply, sessionKey, browserSessions, cookieSecure, holder, holder.caller?.expiresAt);
        // A password's sign-in noted it already; a key's is noted once it made a session, and a note
        // that cannot be written costs the sign-in nothing.
        if (holder.caller)
          await team.signedIn(holder.caller).catch((error: unknown) => request.log.warn({ err: error }, 'could not note a sign-in'));
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
            'Sign browsers out: removes the session cookie and, for a signed-in request (cookie or key), ends every cookie session of that user (all their browsers, on all instances)',
          tags: ['Session'],
          security: [],
          response: { 200: browserSessionResultSchema, 401: detailErrorSchema, 403: detailErrorSchema },
        },
      },
      async (request, reply) => {
        if (!fromOwnOrigin(request)) return reply.status(403).send({ detail: 'Sign-out is accepted only from pages of this server' });
        clearSessionCookie(reply, cookieSecure);
        // Ending sessions writes the database and signs the user out everywhere: not for whoever merely asks.
        const caller = await find(request);
        if (typeof caller === 'string') {
          if (isForm(request)) return reply.redirect('/sign-in', 303);
          return reply.status(401).send({ detail: 'Not signed in: no session to end' });
        }
        await team.endSessions({ ...caller, address: request.ip });
        if (isForm(request)) return reply.redirect('/sign-in', 303);
        return { success: true };
      },
    );

    app.post(
      '/change-password',
      {
        schema: {
          summary: "Change the signed-in user's password (ours): every other session of theirs ends, this browser gets a new one",
          tags: ['Session'],
          security: [],
          body: passwordChangeSchema,
          response: {
            200: browserSessionResultSchema,
            401: detailErrorSchema,
            403: detailErrorSchema,
            409: detailErrorSchema,
            422: validationErrorBodySchema,
            503: detailErrorSchema,
          },
        },
      },
      async (request, reply) => {
        if (!fromOwnOrigin(request)) return reply.status(403).send({ detail: 'Passwords are changed only from pages of this server' });
        const caller = await find(request);
        if (typeof caller === 'string') return reply.status(401).send({ detail: 'Unauthorized' });
        await team.changePassword({ ...caller, address: request.ip }, request.body.current_password, request.body.new_password, request.ip);
        // Its new cookie is bound to the key the old one was signed in with, if any.
        if (caller.authType === 'cookie')
          await setSessionCookie(
            reply,
            sessionKey,
            browserSessions,
            cookieSecure,
            { userId: caller.userId, keyId: caller.signedInWithKey },
            caller.expiresAt,
          );
        reply.header('cache-control', 'no-store');
        return { success: true };
      },
    );

    app.post(
      '/invitation',
      {
        schema: {
          summary:
            "The invitation an invitation link's token is: the email the invited person joins as, and until when the link works (ours)",
          description: 'A POST, so the token stays out of URLs and logs. A used, withdrawn or expired link 404.',
          tags: ['Session'],
          security: [],
          body: invitationLookupBodySchema,
          response: { 200: invitationLinkSchema, 404: detailErrorSchema, 422: validationErrorBodySchema },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return team.invitation(request.body.token);
      },
    );

    app.post(
      '/accept-invitation',
      {
        schema: {
          summary: "Accept an invitation: the link's token, a password (and a name) make the account active and sign the browser in",
          tags: ['Session'],
          security: [],
          body: acceptInvitationBodySchema,
          response: {
            200: browserSessionResultSchema,
            403: detailErrorSchema,
            404: detailErrorSchema,
            409: detailErrorSchema,
            422: validationErrorBodySchema,
            503: detailErrorSchema,
          },
        },
      },
      async (request, reply) => {
        if (!fromOwnOrigin(request)) return reply.status(403).send({ detail: 'Invitations are accepted only from pages of this server' });
        if (browserSessions.refusedBecause) return reply.status(409).send({ detail: i18nOf(request)._(browserSessions.refusedBecause) });
        const { token, password, name } = request.body;
        const userId = await team.acceptInvitation(token, password, name, request.ip);
        if (!cookieFreeHostAlternative(request)) await setSessionCookie(reply, sessionKey, browserSessions, cookieSecure, { userId });
        reply.header('cache-control', 'no-store');
        return { success: true };
      },
    );
  };
}
