import type { FastifyInstance } from 'fastify';

/** Where a listening server can be opened: a wildcard host is shown as the loopback address. */
export function shownAddress(app: FastifyInstance, host: string, fallbackPort: number): { host: string; port: number } {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : fallbackPort;
  return { host: ['0.0.0.0', '::'].includes(host) ? '127.0.0.1' : host, port };
}

export const originOf = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * The address to open a listening server at, with a Jupyter-style sign-in link when there is a
 * key: the key travels in the fragment, which browsers never send.
 */
export function signInLinkFor(app: FastifyInstance, host: string, fallbackPort: number, key: string | undefined): string {
  const shown = shownAddress(app, host, fallbackPort);
  const origin = originOf(shown.host, shown.port);
  return key ? `${origin}/#key=${key}` : `${origin}/`;
}
