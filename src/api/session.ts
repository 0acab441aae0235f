/**
 * Who the console talks to and with which key. Stored in localStorage so a reload or a new tab
 * stays signed in; any part of the app can subscribe to changes (sign-in, sign-out, a 401).
 */
export interface Session {
  /** The session key or an API key; '' when the browser's session cookie is the proof (signed in with a password). */
  apiKey: string;
  /** Origin of the API server, or '' for the server that serves the console. */
  baseUrl: string;
}

export interface SessionState {
  session: Session | null;
  /** Set when the server refused the key mid-use (the page should stay): which server it was. */
  expired: { baseUrl: string } | null;
}

const STORAGE_KEY = 'agent-console.session';
const listeners = new Set<() => void>();
let state: SessionState | undefined;

function readStored(): Session | null {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
    if (parsed && typeof parsed === 'object' && 'apiKey' in parsed && typeof parsed.apiKey === 'string') {
      const baseUrl = 'baseUrl' in parsed && typeof parsed.baseUrl === 'string' ? parsed.baseUrl : '';
      // Without a key only the cookie of this console's own server can be the proof.
      if (parsed.apiKey || baseUrl === '') return { apiKey: parsed.apiKey, baseUrl };
    }
  } catch {
    // A damaged entry means "signed out".
  }
  return null;
}

/** The current state; the same object until something changes (for useSyncExternalStore). */
export function getSessionState(): SessionState {
  state ??= { session: readStored(), expired: null };
  return state;
}

export function getSession(): Session | null {
  return getSessionState().session;
}

function publish(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export function signIn(session: Session): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  publish({ session, expired: null });
}

/** The user signs out: forget the key. */
export function signOut(): void {
  localStorage.removeItem(STORAGE_KEY);
  publish({ session: null, expired: null });
}

/** The server refused the key (a 401): forget it, and remember that it was not the user's choice. */
export function expireSession(): void {
  const session = getSession();
  if (!session) return;
  localStorage.removeItem(STORAGE_KEY);
  publish({ session: null, expired: { baseUrl: session.baseUrl } });
}

export function subscribeToSession(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) publish({ session: readStored(), expired: null });
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Normalises what a person types as a server address: scheme added, no trailing slash. */
export function normaliseBaseUrl(input: string): string {
  const trimmed = input.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  return /^https?:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
}
