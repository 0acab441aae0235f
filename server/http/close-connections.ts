import type { FastifyInstance } from 'fastify';

/**
 * A close lets the requests in flight finish, then ends their connections. Node's server ends only
 * the connections that are idle when the close begins: a keep-alive connection whose response was
 * still on its way stays open for as long as the client keeps it (Fastify's keep-alive timeout is
 * 72 s), and the close, a restart or Ctrl+C waits for it.
 */
export function endConnectionsAfterClose(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onResponse', async () => {
    // Next turn: the connection counts as idle only once its response is done with.
    if (closing) setImmediate(() => app.server.closeIdleConnections());
  });
}
