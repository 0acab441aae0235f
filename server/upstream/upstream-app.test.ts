import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv } from '../config';
import { createLogger } from '../logger';
import { closeDuringRequest, requestLog } from '../testing/close-during-request';
import { buildUpstreamApp } from './upstream-app';

interface Seen {
  method: string;
  url: string;
  key: string | undefined;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/** A stand-in OpenHands that records what reaches it; `/api/slow` sends one chunk and holds the rest until `finishSlow` is called. */
async function startUpstream() {
  const seen: Seen[] = [];
  let finishSlow: () => void = () => {};
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const key = req.headers['x-session-api-key'] as string | undefined;
      seen.push({ method: req.method ?? '', url: req.url ?? '', key, body, headers: req.headers });
      if (req.url?.endsWith('/api/busy')) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
        res.end('{"detail": "busy"}');
        return;
      }
      if (req.url?.endsWith('/api/slow')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n');
        finishSlow = () => res.end('data: last\n\n');
        return;
      }
      res.writeHead(req.url?.includes('missing') ? 404 : 200, {
        'content-type': 'application/json',
        'keep-alive': 'timeout=5',
        'proxy-authenticate': 'Basic realm="openhands"',
        upgrade: 'h2c',
        'x-upstream-hop': 'only to the proxy',
        connection: 'keep-alive, x-upstream-hop',
      });
      res.end(JSON.stringify({ echoed: req.url }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    finishSlow: () => finishSlow(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Log lines the app wrote, parsed. */
function logLines() {
  const lines: { level: number; msg?: string }[] = [];
  const destination = { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg?: string }) };
  return { lines, log: createLogger('info', destination) };
}

async function setUp(path = '', log = createLogger(false)) {
  const upstream = await startUpstream();
  closers.push(upstream.close);
  const app: FastifyInstance = await buildUpstreamApp({
    upstreamUrl: new URL(`${upstream.url}${path}`),
    consoleDir: '/nonexistent',
    log,
  });
  closers.push(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { upstream, app, origin: `http://127.0.0.1:${port}` };
}

describe('upstream mode', () => {
  it('forwards /api/** and /openapi.json unchanged: method, query, key, body and the response with its status', async () => {
    const { upstream, origin } = await setUp();
    const headers = { 'X-Session-API-Key': 'oh-key', 'content-type': 'application/json' };
    const posted = await fetch(`${origin}/api/settings?x=1&x=2`, { method: 'POST', headers, body: '{"language": "fr"}' });
    expect(posted.status).toBe(200);
    expect(await posted.json()).toEqual({ echoed: '/api/settings?x=1&x=2' });
    const missing = await fetch(`${origin}/api/v1/missing`, { method: 'DELETE', headers });
    expect(missing.status).toBe(404);
    await fetch(`${origin}/openapi.json`, { headers: { 'X-Session-API-Key': 'oh-key' } });
    await fetch(`${origin}/openapi.json`);
    expect(upstream.seen.map(({ headers: _headers, ...request }) => request)).toEqual([
      { method: 'POST', url: '/api/settings?x=1&x=2', key: 'oh-key', body: '{"language": "fr"}' },
      { method: 'DELETE', url: '/api/v1/missing', key: 'oh-key', body: '' },
      { method: 'GET', url: '/openapi.json', key: 'oh-key', body: '' },
      { method: 'GET', url: '/openapi.json', key: undefined, body: '' },
    ]);
  });

  it("drops hop-by-hop headers both ways and leaves OpenHands' responses without the console's own headers", async () => {
    const { upstream, origin } = await setUp();
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const headers = { te: 'gzip', 'proxy-authorization': 'Basic cHJveHk6cGFzcw==', 'x-session-api-key': 'oh-key' };
      http.get(`${origin}/api/settings`, { headers }, resolve).on('error', reject);
    });
    response.resume();
    expect(response.statusCode).toBe(200);
    // (A Keep-Alive of this server's own connection may come; OpenHands' does not.)
    expect(response.headers['keep-alive']).not.toBe('timeout=5');
    for (const name of ['proxy-authenticate', 'upgrade', 'x-upstream-hop']) expect(response.headers[name], name).toBeUndefined();
    expect(response.headers['x-content-type-options']).toBeUndefined();
    expect(response.headers['referrer-policy']).toBeUndefined();
    const [seen] = upstream.seen;
    expect(seen?.headers['x-session-api-key']).toBe('oh-key');
    expect(seen?.headers['proxy-authorization']).toBeUndefined();
    expect(seen?.headers.te).toBeUndefined();
    await new Promise<void>((resolve, reject) =>
      http
        .get(`${origin}/api/settings`, { headers: { te: 'trailers' } }, (response) => response.resume().on('end', resolve))
        .on('error', reject),
    );
    expect(upstream.seen[1]?.headers.te).toBe('trailers');

    // Headers that would make the request to OpenHands fail (a 502) are answered or left here.
    for (const headers of [
      { 'keep-alive': 'timeout=5' },
      { upgrade: 'websocket' },
      { expect: '100-continue', 'content-type': 'application/json' },
    ]) {
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const request = http.request(`${origin}/api/settings`, { method: 'POST', headers }, (response) => {
          response.resume();
          resolve(response.statusCode);
        });
        request.on('error', reject);
        request.end('{}');
      });
      expect(status, JSON.stringify(headers)).toBe(200);
      const forwarded = upstream.seen.at(-1)!;
      expect(forwarded.body).toBe('{}');
      for (const name of Object.keys(headers).filter((name) => name !== 'content-type'))
        expect(forwarded.headers[name], name).toBeUndefined();
    }
  });

  it("passes OpenHands' 503 on as it is, asking once", async () => {
    const { upstream, origin } = await setUp();
    const busy = await fetch(`${origin}/api/busy`);
    expect(busy.status).toBe(503);
    expect(await busy.json()).toEqual({ detail: 'busy' });
    expect(upstream.seen).toHaveLength(1);
  });

  it('returns 502 saying OpenHands cannot be reached when it is down, without an error log line', async () => {
    const { lines, log } = logLines();
    const { upstream, origin } = await setUp('', log);
    await upstream.close();
    const response = await fetch(`${origin}/api/v1/conversations/search`);
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ detail: `OpenHands at ${upstream.url} cannot be reached: ECONNREFUSED` });
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(lines.filter((line) => line.level === 30 && line.msg !== 'Server listening at ' + origin)).toEqual([]);
  });

  it('closes without waiting for the browser: a request in flight when the close begins is answered, then its connection ends', async () => {
    const { destination, received } = requestLog();
    const { upstream, app, origin } = await setUp('', createLogger('debug', destination));
    const status = await closeDuringRequest({ url: `${origin}/api/settings`, body: '{}', received, close: () => app.close() });
    expect(status).toBe(200);
    expect(upstream.seen.map(({ url }) => url)).toEqual(['/api/settings']);
  });

  it('passes a streamed response on as it comes, not once it ends', async () => {
    const { upstream, origin } = await setUp();
    const response = await fetch(`${origin}/api/slow`);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: first\n\n');
    upstream.finishSlow();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('data: last\n\n');
  });

  it("keeps an upstream's base path and says where it forwards to; other paths are the console's", async () => {
    const { upstream, origin } = await setUp('/openhands/');
    await fetch(`${origin}/api/v1/sandboxes/search`);
    expect(upstream.seen.map((request) => request.url)).toEqual(['/openhands/api/v1/sandboxes/search']);
    expect(await (await fetch(`${origin}/upstream.json`)).json()).toEqual({ url: `${upstream.url}/openhands` });
    const consolePage = await fetch(`${origin}/settings`);
    expect(consolePage.status).toBe(503); // the console is not built here
    expect(consolePage.headers.get('x-content-type-options')).toBe('nosniff');
    expect(upstream.seen).toHaveLength(1);
  });
});

describe('UPSTREAM_URL', () => {
  it('is an http(s) URL, or absent', () => {
    expect(configFromEnv({}).upstreamUrl).toBeUndefined();
    expect(configFromEnv({ UPSTREAM_URL: ' http://openhands:3000 ' }).upstreamUrl?.href).toBe('http://openhands:3000/');
    expect(() => configFromEnv({ UPSTREAM_URL: 'http://user:pass@openhands:3000' })).toThrow(/must not carry a user name or password/);
    for (const bad of ['openhands:3000', 'ftp://x', 'http://x/?a=1', 'not a url']) {
      expect(() => configFromEnv({ UPSTREAM_URL: bad })).toThrow(ConfigError);
    }
  });
});
