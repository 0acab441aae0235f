import httpProxy from '@fastify/http-proxy';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { registerHostCheck } from '../host-check';
import { registerErrorHandling } from '../http-errors';
import type { Logger } from '../logger';
import { registerConsole } from '../routes/console';

export interface UpstreamAppOptions {
  /** The OpenHands server every `/api/**` request goes to. */
  upstreamUrl: URL;
  consoleDir: string;
  log: Logger;
  allowedHosts?: string[];
}

/** Where the console asks which server this one forwards to (`{"url": …}`); only upstream mode has it. */
export const UPSTREAM_INFO_PATH = '/upstream.json';

/** `http://oh:3000/base/` → `/base`: the upstream's own prefix, put in front of every forwarded path. */
const basePath = (url: URL) => url.pathname.replace(/\/+$/, '');

/**
 * Upstream mode: the console's files from here, and `/api/**` and `/openapi.json` forwarded to a
 * real OpenHands as they are (method, query, headers with the session key, body; answers piped
 * back as they arrive, so streamed ones stay streamed). Nothing is stored or checked here.
 */
export async function buildUpstreamApp(options: UpstreamAppOptions): Promise<FastifyInstance> {
  const loggerInstance: FastifyBaseLogger = options.log;
  const app = Fastify({
    loggerInstance,
    logController: new LogController({ disableRequestLogging: !options.log.isLevelEnabled('debug') }),
  });
  registerHostCheck(app, options.allowedHosts ?? []);
  registerErrorHandling(app);

  const upstream = options.upstreamUrl.origin;
  const base = basePath(options.upstreamUrl);
  // A long answer (a streamed start, an event stream) may stay quiet for minutes: no body timeout.
  const undici = { bodyTimeout: 0 };
  await app.register(httpProxy, { upstream, prefix: '/api', rewritePrefix: `${base}/api`, undici });
  await app.register(httpProxy, { upstream, prefix: '/openapi.json', rewritePrefix: `${base}/openapi.json`, undici });

  const shown = `${options.upstreamUrl.origin}${base}`;
  app.get(UPSTREAM_INFO_PATH, async (_request, reply) => reply.header('cache-control', 'no-cache').send({ url: shown }));
  await registerConsole(app, options.consoleDir);
  return app;
}
