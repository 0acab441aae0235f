import { msg } from '@lingui/core/macro';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { NotFound } from '../domain-errors';

/** The policy for our own console (and the sign-in page); CONSOLE_CSP replaces it for another console. */
export const STRICT_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Mantine sets CSS variables through inline style attributes and one <style> element.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  // The console may be pointed at another API server from its sign-in screen.
  "connect-src 'self' http: https:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A built file's path: a miss there is a 404, not the app shell. (`/api` has its own 404.) */
const isAsset = (url: string) => url.startsWith('/assets/');

/** One URL path of the console and the HTML served for it (pages.json, written by scripts/page-preloads.ts). */
interface ConsolePage {
  path: string;
  file: string;
}

/** The build's page per URL, if it wrote them: each preloads what a first visit to its URL needs. */
function readPages(consoleDir: string): ConsolePage[] {
  const file = path.join(consoleDir, 'pages.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as ConsolePage[]) : [];
}

/** Whether `url`'s path is `pattern`'s, where a `:name` segment stands for any one segment. */
function pathMatches(pattern: string, url: string): boolean {
  const segments = (url.split(/[?#]/, 1)[0] ?? '').split('/').filter(Boolean);
  const wanted = pattern.split('/').filter(Boolean);
  return segments.length === wanted.length && wanted.every((segment, i) => segment.startsWith(':') || segment === segments[i]);
}

/**
 * Serves the built console: hashed assets cached for good, and the app's HTML (never cached) for
 * every other GET, so browser-history routes such as `/settings` load the app: the page made for
 * that URL where the build made one, `index.html` otherwise.
 */
export async function registerConsole(
  app: FastifyInstance,
  consoleDir: string,
  contentSecurityPolicy = STRICT_CONTENT_SECURITY_POLICY,
): Promise<void> {
  const indexFile = path.join(consoleDir, 'index.html');
  const built = fs.existsSync(indexFile);
  const pages = built ? readPages(consoleDir) : [];
  // A hook with a callback, not a promise: it runs for every response.
  app.addHook('onSend', (_request, reply, _payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    // A page that set its own policy (the sign-in page) keeps it.
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html') && !reply.hasHeader('content-security-policy'))
      reply.header('content-security-policy', contentSecurityPolicy);
    done();
  });
  // For both registrations, and for `sendFile` (which the first one's options serve).
  const cacheControl = (res: { header: (name: string, value: string) => unknown }, filePath: string) =>
    res.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? IMMUTABLE : 'no-cache');
  if (built) {
    // preCompressed: the build writes .br and .gz beside each file (scripts/precompress.ts), so nothing is compressed per request.
    // Hashed assets: one route that reads the folder per request, so a build made while the server runs is served too.
    await app.register(fastifyStatic, {
      root: path.join(consoleDir, 'assets'),
      prefix: '/assets/',
      index: false,
      preCompressed: true,
      setHeaders: cacheControl,
    });
    // The few other built files (favicon, pages): a route each, found at start.
    await app.register(fastifyStatic, {
      root: consoleDir,
      wildcard: false,
      globIgnore: ['assets/**'],
      decorateReply: false,
      index: false,
      preCompressed: true,
      setHeaders: cacheControl,
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') throw new NotFound(msg`Not Found`);
    if (isAsset(request.url)) throw new NotFound(msg`Not Found`);
    if (!built) {
      return reply.status(503).type('text/plain').send('The console is not built yet: run `npm run build` (npm start does it for you).');
    }
    const page = pages.find((candidate) => pathMatches(candidate.path, request.url));
    // A build made while the server runs may have renamed or not yet written the pages: the app's own HTML serves every URL too.
    const file = page && fs.existsSync(path.join(consoleDir, page.file)) ? page.file : 'index.html';
    return reply.header('cache-control', 'no-cache').sendFile(file, consoleDir);
  });
}
