import { startCookieSession } from '../../api/auth';
import { signIn } from '../../api/session';

/** Why the identity provider's sign-in failed, as the server said when it sent the browser back; shown once. */
let signInError: string | null = null;

/**
 * Signs in from what a link or the server put in the fragment: a key from `#key=<key>` (the link
 * the server prints at start, as Jupyter does), or `#session=cookie` when the server signed the
 * browser in itself (the identity provider's way back); `#sign-in-error=` is kept for the sign-in
 * form (`signInErrorToShow`). Each is taken out of the address bar and the history right away; the
 * link belongs to the server that served this page, so the key is never sent anywhere else.
 */
export function signInFromLink(location: Location = window.location, history: History = window.history): boolean {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const key = params.get('key')?.trim();
  const cookie = params.get('session') === 'cookie';
  signInError = params.get('sign-in-error') ?? signInError;
  if (!key && !cookie && !params.has('sign-in-error')) return false;
  for (const name of ['key', 'session', 'sign-in-error']) params.delete(name);
  const rest = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
  const session = { apiKey: key ?? '', baseUrl: '' };
  if (key || cookie) signIn(session);
  if (key) void startCookieSession(session);
  return Boolean(key || cookie);
}

/** Why the last sign-in with the identity provider failed, until it is forgotten (`forgetSignInError`). */
export const signInErrorToShow = (): string | null => signInError;

/** Once the form showing it is on the page: a sign-in form shown later starts clean. */
export function forgetSignInError(): void {
  signInError = null;
}
