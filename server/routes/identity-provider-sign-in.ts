import { sign, unsign } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cookieFreeHostAlternative, registerSessionCookie, setSessionCookie } from '../http/session-cookie';
import { DomainError } from '../domain-errors';
import { i18nOf } from '../i18n/server-i18n';
import type { BrowserSessions } from '../services/sessions/browser-sessions';
import type { IdentityProvider, PendingSignIn } from '../services/team/identity-provider';

/** What a sign-in keeps while the browser is at the provider: signed, for this path only. */
const PENDING_COOKIE = 'agent_console_oidc';
const PENDING_PATH = '/sign-in/oidc';
const PENDING_MAX_AGE_S = 10 * 60;

export interface IdentityProviderSignInOptions {
  provider: IdentityProvider;
  sessionKey: string;
  browserSessions: BrowserSessions;
  cookieSecure: boolean;
}

const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** Back to the console: signed in (it keeps the session cookie as its proof), or with why not in its sign-in form. */
const toConsole = (reply: FastifyReply, error?: string) =>
  reply.redirect(error === undefined ? '/#session=cookie' : `/#sign-in-error=${encodeURIComponent(error)}`, 303);

function readPending(value: string | undefined, key: string): PendingSignIn | undefined {
  const unsigned = value === undefined ? undefined : unsign(value, key);
  if (!unsigned?.valid) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(unsigned.value, 'base64url').toString()) as Partial<PendingSignIn>;
    const { verifier, state, nonce } = parsed;
    return typeof verifier === 'string' && typeof state === 'string' && typeof nonce === 'string' ? { verifier, state, nonce } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `/sign-in/oidc` and its callback: sign-in with the identity provider OIDC_* name, ending in the
 * session cookie a password sign-in sets. The pending state cookie is SameSite=Lax: the
 * provider's redirect back is a top-level navigation from its site, which Strict would not carry.
 */
export function identityProviderSignInRoutes({
  provider,
  sessionKey,
  browserSessions,
  cookieSecure,
}: IdentityProviderSignInOptions): FastifyPluginAsyncZod {
  return async (app) => {
    await registerSessionCookie(app);
    const pendingAttributes = (request: FastifyRequest) => ({
      path: PENDING_PATH,
      httpOnly: true,
      sameSite: 'lax' as const,
      secure: cookieSecure || request.protocol === 'https',
    });

    app.get(
      '/sign-in/oidc',
      { schema: { summary: `Sign in with the identity provider (${provider.name}): a redirect there`, tags: ['Session'], security: [] } },
      async (request, reply) => {
        if (browserSessions.refusedBecause) return toConsole(reply, i18nOf(request)._(browserSessions.refusedBecause));
        const elsewhere = cookieFreeHostAlternative(request);
        if (elsewhere) return reply.redirect(`${elsewhere}${PENDING_PATH}`, 303);
        try {
          const { url, pending } = await provider.start(`${originOf(request)}${PENDING_PATH}/callback`);
          const value = sign(Buffer.from(JSON.stringify(pending)).toString('base64url'), await browserSessions.signingKey(sessionKey));
          reply.setCookie(PENDING_COOKIE, value, { ...pendingAttributes(request), maxAge: PENDING_MAX_AGE_S });
          reply.header('cache-control', 'no-store');
          return reply.redirect(url, 303);
        } catch (error) {
          if (error instanceof DomainError) return toConsole(reply, error.messageIn(i18nOf(request)));
          throw error;
        }
      },
    );

    app.get(
      '/sign-in/oidc/callback',
      {
        schema: {
          summary: 'Where the identity provider sends the browser back: sets the session cookie and goes to the console',
          tags: ['Session'],
          security: [],
        },
      },
      async (request, reply) => {
        const pending = readPending(request.cookies[PENDING_COOKIE], await browserSessions.signingKey(sessionKey));
        reply.clearCookie(PENDING_COOKIE, pendingAttributes(request));
        reply.header('cache-control', 'no-store');
        // Before the provider's answer is taken: it would make or activate a user no session can follow.
        if (browserSessions.refusedBecause) return toConsole(reply, i18nOf(request)._(browserSessions.refusedBecause));
        if (!pending) return toConsole(reply, 'The sign-in took too long or was started elsewhere; try again');
        try {
          const userId = await provider.finish(new URL(request.url, originOf(request)), pending, request.ip);
          await setSessionCookie(reply, sessionKey, browserSessions, cookieSecure, { userId });
          return toConsole(reply);
        } catch (error) {
          if (error instanceof DomainError) return toConsole(reply, error.messageIn(i18nOf(request)));
          throw error;
        }
      },
    );
  };
}
