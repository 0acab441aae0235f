/**
 * The address every sandbox's agent server is published on, and handed out as
 * (`http://127.0.0.2:<port>`). Browsers keep cookies per host name, not per port: on `localhost`,
 * where the console sets its session cookie, a sandbox's port would get the cookie too
 * (`localhost` is 127.0.0.1). Linux answers on all of 127.0.0.0/8; elsewhere only 127.0.0.1 is
 * there, and the cookie-free host name (see `server/http/session-cookie.ts`) is what keeps it apart.
 */
export const SANDBOX_PUBLISHED_HOST = process.platform === 'linux' ? '127.0.0.2' : '127.0.0.1';

/**
 * Whether the session cookie must never be set on host name `hostname`: 127.0.0.1, where
 * sandboxes without namespaces (sharing the host's network) may listen on any port, and the
 * address sandboxes are published on.
 */
export const isCookieFreeHost = (hostname: string) => hostname === '127.0.0.1' || hostname === SANDBOX_PUBLISHED_HOST;
