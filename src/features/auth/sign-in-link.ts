import { startCookieSession } from '../../api/auth';
import { signIn } from '../../api/session';

/** Why the identity provider's sign-in failed, as the server said when it sent the browser back; read once. */
let signInError: string | null = null;

/** Takes out of the address bar and the history the fragment parameters `names`; returns them. */
function takeFromFragment(names: string[], location: Location, history: History): URLSearchParams {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const taken = new URLSearchParams();
  for (const name of names) {
    const value = params.get(name);
    if (value === null) continue;
    taken.set(name, value);
    params.delete(name);
  }
  if ([...taken.keys()].length > 0) {
    const rest = params.toString();
    history.replaceState(history.state, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
  }
  return taken;
}

/**
 * Signs in from what a link or the server put in the fragment: a key from `#key=<key>` (the link
 * the server prints at start, as Jupyter does), or `#session=cookie` when the server signed the
 * browser in itself (the identity provider's way back). Either is taken out of the address bar
 * and the history right away; the link belongs to the server that served this page, so the key
 * is never sent anywhere else. `#sign-in-error=` is kept for the sign-in form (`takeSignInError`).
 */
export function signInFromLink(location: Location = window.location, history: History = window.history): boolean {
  const taken = takeFromFragment(['key', 'session', 'sign-in-error'], location, history);
  signInError = taken.get('sign-in-error') ?? signInError;
  if (taken.get('session') === 'cookie') {
    signIn({ apiKey: '', baseUrl: '' });
    return true;
  }
  const key = taken.get('key')?.trim();
  if (!key) return false;
  const session = { apiKey: key, baseUrl: '' };
  signIn(session);
  void startCookieSession(session);
  return true;
}

/** Why the last sign-in with the identity provider failed, once. */
export function takeSignInError(): string | null {
  const error = signInError;
  signInError = null;
  return error;
}
