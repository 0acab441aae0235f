/**
 * The host name every sandbox's agent server is published on, and handed out as
 * (`http://127.0.0.1:<port>`). Browsers keep cookies per host name, not per port, so the server
 * never sets its session cookie on this name: it would reach the sandboxes too.
 */
export const SANDBOX_PUBLISHED_HOST = '127.0.0.1';
