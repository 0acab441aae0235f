import { startCookieSession } from '../../api/auth';
import { signIn } from '../../api/session';

/**
 * Signs in with a key from a `#key=<key>` link (the one the server prints at start, as Jupyter
 * does) and takes the key out of the address bar and the history right away. The link belongs
 * to the server that served this page, so the key is never sent anywhere else.
 */
export function signInFromLink(location: Location = window.location, history: History = window.history): boolean {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const key = params.get('key')?.trim();
  if (!key) return false;
  params.delete('key');
  const rest = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
  const session = { apiKey: key, baseUrl: '' };
  signIn(session);
  void startCookieSession(session);
  return true;
}
