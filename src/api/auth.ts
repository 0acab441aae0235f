import { t } from '@lingui/core/macro';
import * as z from 'zod/mini';
import { browserSessionResultSchema } from '../contract/browser-session';
import { legacyErrorSchema } from '../contract/errors';
import { SETTINGS_READ_PATH, settingsResponseSchema } from '../contract/settings';
import { acceptLanguage, apiRequest } from './client';
import { ApiError, isApiError } from './errors';
import type { Session } from './session';

/**
 * Checks credentials before they are stored, by reading the settings: the server must return them
 * (or, on a first run, our server's `null` or OpenHands' own 404 "Settings not found"). Anything
 * else, a 401 or a response that is not this API's, throws an ApiError saying what went wrong.
 */
export async function verifySession(session: Session): Promise<void> {
  try {
    await apiRequest(SETTINGS_READ_PATH, { schema: z.nullable(settingsResponseSchema), session });
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (error.status === 404 && legacyErrorSchema.safeParse(error.body).success) return;
    if (error.isUnauthorized || error.kind === 'network') throw error;
    const { baseUrl } = session;
    const why = error.message;
    throw new ApiError(
      baseUrl
        ? t`${baseUrl} does not respond like an Agent Conversation Service (${why}).`
        : t`This server does not respond like an Agent Conversation Service (${why}).`,
      error.kind,
      error.status,
    );
  }
}

/**
 * Where our server never sets the cookie: the host name it publishes sandboxes on (a cookie there
 * would reach every sandbox's port). It would respond with 409, which the browser logs as a failed
 * request; the printed sign-in link opens the console there.
 */
const COOKIE_FREE_HOSTNAME = '127.0.0.1';

/**
 * Asks the server that serves this page for its HttpOnly session cookie as well, so other pages
 * of this server that cannot send the key (OpenHands' web client served beside it) are signed
 * in too. Only this page's own server is asked: the cookie belongs to this origin. A server
 * without the route (OpenHands itself) is no failure: the console goes on with the header.
 */
export async function startCookieSession(session: Session, hostname = window.location.hostname): Promise<void> {
  if (session.baseUrl !== '' || hostname === COOKIE_FREE_HOSTNAME) return;
  try {
    await apiRequest('/sign-in', { method: 'POST', body: { key: session.apiKey }, schema: browserSessionResultSchema, session });
  } catch {
    // The header still works; only the cookie is missing.
  }
}

/** Removes this origin's session cookie (sign-out), whichever server the console talked to. */
export async function endCookieSession(): Promise<void> {
  try {
    await fetch('/sign-out', { method: 'POST', headers: { accept: 'application/json', 'accept-language': acceptLanguage() } });
  } catch {
    // Nothing to remove when the server is gone.
  }
}

/** Signs this browser in to this console's server with an email and password (the session cookie). */
export function signInWithPassword(email: string, password: string) {
  return apiRequest('/sign-in', {
    method: 'POST',
    body: { email, password },
    schema: browserSessionResultSchema,
    session: { apiKey: '', baseUrl: '' },
  });
}
