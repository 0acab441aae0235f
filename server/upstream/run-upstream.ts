import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config';
import { createLogger } from '../logger';
import { signInLinkFor } from '../sign-in-link';
import { buildUpstreamApp } from './upstream-app';

/**
 * `npm start` with UPSTREAM_URL: no data dir, database, keys or sandboxes here, only the console
 * and the forwarding. The sign-in link carries SESSION_API_KEY when given (OpenHands' key).
 */
export async function serveUpstream(
  config: ServerConfig & { upstreamUrl: URL },
): Promise<{ app: FastifyInstance; signInLink: string; log: ReturnType<typeof createLogger> }> {
  const log = createLogger(config.logLevel);
  const app = await buildUpstreamApp({
    upstreamUrl: config.upstreamUrl,
    consoleDir: config.consoleDir,
    allowedHosts: [config.host, ...config.allowedHosts],
    log,
  });
  await app.listen({ host: config.host, port: config.port });
  log.info({ upstream: config.upstreamUrl.origin }, 'forwarding /api to OpenHands; nothing is stored here');
  return { app, log, signInLink: signInLinkFor(app, config.host, config.port, config.sessionApiKey) };
}
