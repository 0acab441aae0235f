/**
 * Who the console talks to and with which key. Kept in localStorage so a reload or a new tab
 * stays signed in; any part of the app can subscribe to changes (sign-in, sign-out, a 401).
 */
export interface Session {
  apiKey: string;
  /** Origin of the API server, or '' for the server that serves the console. */
  baseUrl: string;
}

const STORAGE_KEY = 'agent-console.session';
const listeners = new Set<() => void>();
let cached: Session | null | undefined;

function read(): Session | null {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
    if (parsed && typeof parsed === 'object' && 'apiKey' in parsed && typeof parsed.apiKey === 'string' && parsed.apiKey) {
      const baseUrl = 'baseUrl' in parsed && typeof parsed.baseUrl === 'string' ? parsed.baseUrl : '';
      return { apiKey: parsed.apiKey, baseUrl };
    }
  } catch {
    // A damaged entry means "signed out".
  }
  return null;
}

export function getSession(): Session | null {
  if (cached === undefined) cached = read();
  return cached;
}

function publish(next: Session | null): void {
  cached = next;
  for (const listener of listeners) listener();
}

export function signIn(session: Session): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  publish(session);
}

export function signOut(): void {
  localStorage.removeItem(STORAGE_KEY);
  publish(null);
}

export function subscribeToSession(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) publish(read());
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
