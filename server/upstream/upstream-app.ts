import httpProxy from '@fastify/http-proxy';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { registerHostCheck } from '../http/host-check';
import { registerErrorHandling } from '../http/errors';
import { endConnectionsAfterClose } from '../http/close-connections';
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

/** reply-from's errors for a request that timed out (504); every other failure to reach OpenHands is a 502. */
const TIMEOUT_CODES = new Set([
  'FST_REPLY_FROM_TIMEOUT',
  'FST_REPLY_FROM_GATEWAY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
]);

/** The code that says why OpenHands could not be reached: the network error's own (ECONNREFUSED) when there is one. */
function failureCode(error: Error & { code?: string; cause?: unknown }): string {
  const cause = error.cause as { code?: unknown } | undefined;
  return typeof cause?.code === 'string' ? cause.code : (error.code ?? error.message);
}

/** Headers about one connection (RFC 9110, 7.6.1), which a proxy never passes on. */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];

/** `headers` without the hop-by-hop ones, those `Connection` names, and `also`. */
function withoutHopByHop<Headers extends IncomingHttpHeaders>(headers: Headers, also: string[] = []): Headers {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  const dropped = new Set([...HOP_BY_HOP, ...named, ...also]);
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !dropped.has(name))) as Headers;
}

/**
 * What reaches OpenHands of a request's headers: no hop-by-hop ones (`TE: trailers` aside), and no
 * `Expect`, which this server has answered already (the client's request to send its body).
 */
function upstreamRequestHeaders<Headers extends IncomingHttpHeaders>(headers: Headers): Headers {
  const forwarded = withoutHopByHop(headers, ['expect']);
  return (headers.te === 'trailers' ? { ...forwarded, te: 'trailers' } : forwarded) as Headers;
}

/** What reaches the client of OpenHands' response headers: none about OpenHands' connection. */
const downstreamHeaders = <Headers extends IncomingHttpHeaders>(headers: Headers): Headers => withoutHopByHop(headers);

/** The part of a reply the error response needs (reply-from types it for any raw server). */
interface ErrorReply {
  code(status: number): { send(body: unknown): unknown };
}

/**
 * Upstream mode: the console's files from here, and `/api/**` and `/openapi.json` forwarded to a
 * real OpenHands (method, query, headers with the session key, body; responses piped back as they
 * arrive with OpenHands' headers, so streamed ones stay streamed; hop-by-hop headers dropped).
 * Nothing is stored or checked here.
 */
export async function buildUpstreamApp(options: UpstreamAppOptions): Promise<FastifyInstance> {
  const loggerInstance: FastifyBaseLogger = options.log;
  // Per-request lines (ours and the proxy's) only when asked for with LOG_LEVEL=debug.
  const disableRequestLogging = !options.log.isLevelEnabled('debug');
  const app = Fastify({ loggerInstance, logController: new LogController({ disableRequestLogging }) });
  registerHostCheck(app, options.allowedHosts ?? []);
  registerErrorHandling(app);
  endConnectionsAfterClose(app);

  const upstream = options.upstreamUrl.origin;
  const base = basePath(options.upstreamUrl);
  const cannotReach = (reply: ErrorReply, { error }: { error: Error & { code?: string } }) => {
    const status = TIMEOUT_CODES.has(error.code ?? '') ? 504 : 502;
    void reply.code(status).send({ detail: `OpenHands at ${upstream} cannot be reached: ${failureCode(error)}` });
  };
  const proxyOptions = {
    upstream,
    // A long response (a streamed start, an event stream) may stay quiet for minutes: no body timeout.
    undici: { bodyTimeout: 0 },
    // reply-from retries GETs (up to 10 times on a 503): OpenHands' response is passed on as it is, once.
    retryMethods: [],
    disableRequestLogging,
    replyOptions: {
      onError: cannotReach,
      rewriteRequestHeaders: (_request: unknown, headers: IncomingHttpHeaders) => upstreamRequestHeaders(headers),
      rewriteHeaders: downstreamHeaders,
    },
  };
  await app.register(httpProxy, { ...proxyOptions, prefix: '/api', rewritePrefix: `${base}/api` });
  await app.register(httpProxy, { ...proxyOptions, prefix: '/openapi.json', rewritePrefix: `${base}/openapi.json` });

  const shown = `${options.upstreamUrl.origin}${base}`;
  app.get(UPSTREAM_INFO_PATH, async (_request, reply) => reply.header('cache-control', 'no-cache').send({ url: shown }));
  // In its own scope, so the console's headers (CSP, nosniff, referrer policy) stay off OpenHands' responses.
  await app.register(async (scope) => registerConsole(scope, options.consoleDir));
  return app;
}
