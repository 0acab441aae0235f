/**
 * The address every sandbox's agent server is published on, and handed out as
 * (`http://127.0.0.2:<port>`). Browsers keep cookies per host name, not per port: on `localhost`,
 * where the console sets its session cookie, a sandbox's port would get the cookie too
 * (`localhost` is 127.0.0.1). Linux answers on all of 127.0.0.0/8; elsewhere only 127.0.0.1 is
 * there, and the cookie-free host name (see `server/http/session-cookie.ts`) is what keeps it apart.
 */
export const SANDBOX_PUBLISHED_HOST = process.platform === 'linux' ? '127.0.0.2' : '127.0.0.1';

/**
 * The host name the session cookie is never set on: sandboxes without namespaces share the host's
 * network and may listen on any port of it.
 */
export const COOKIE_FREE_HOST = '127.0.0.1';
