import type { FastifyInstance } from 'fastify';

/**
 * The address to open a listening server at, with a Jupyter-style sign-in link when there is a
 * key: the key travels in the fragment, which browsers never send. A wildcard host is shown as
 * the loopback address.
 */
export function signInLinkFor(app: FastifyInstance, host: string, fallbackPort: number, key: string | undefined): string {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : fallbackPort;
  const shownHost = ['0.0.0.0', '::'].includes(host) ? '127.0.0.1' : host;
  const origin = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
  return key ? `${origin}/#key=${key}` : `${origin}/`;
}
