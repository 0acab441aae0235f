import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv } from '../config';
import { createLogger } from '../logger';
import { buildUpstreamApp } from './upstream-app';

interface Seen {
  method: string;
  url: string;
  key: string | undefined;
  body: string;
}

/** A stand-in OpenHands that records what reaches it; `/api/slow` sends one chunk and holds the rest until told. */
async function startUpstream() {
  const seen: Seen[] = [];
  let finishSlow: () => void = () => {};
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', key: req.headers['x-session-api-key'] as string | undefined, body });
      if (req.url?.endsWith('/api/slow')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n');
        finishSlow = () => res.end('data: last\n\n');
        return;
      }
      res.writeHead(req.url?.includes('missing') ? 404 : 200, { 'content-type': 'application/json' });
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

async function setUp(path = '') {
  const upstream = await startUpstream();
  closers.push(upstream.close);
  const app: FastifyInstance = await buildUpstreamApp({
    upstreamUrl: new URL(`${upstream.url}${path}`),
    consoleDir: '/nonexistent',
    log: createLogger(false),
  });
  closers.push(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { upstream, origin: `http://127.0.0.1:${port}` };
}

describe('upstream mode', () => {
  it('forwards /api/** and /openapi.json unchanged: method, query, key, body and the answer with its status', async () => {
    const { upstream, origin } = await setUp();
    const headers = { 'X-Session-API-Key': 'oh-key', 'content-type': 'application/json' };
    const posted = await fetch(`${origin}/api/settings?x=1&x=2`, { method: 'POST', headers, body: '{"language": "fr"}' });
    expect(posted.status).toBe(200);
    expect(await posted.json()).toEqual({ echoed: '/api/settings?x=1&x=2' });
    const missing = await fetch(`${origin}/api/v1/missing`, { method: 'DELETE', headers });
    expect(missing.status).toBe(404);
    await fetch(`${origin}/openapi.json`);
    expect(upstream.seen).toEqual([
      { method: 'POST', url: '/api/settings?x=1&x=2', key: 'oh-key', body: '{"language": "fr"}' },
      { method: 'DELETE', url: '/api/v1/missing', key: 'oh-key', body: '' },
      { method: 'GET', url: '/openapi.json', key: undefined, body: '' },
    ]);
  });

  it('passes a streamed answer on as it comes, not once it ends', async () => {
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
    expect((await fetch(`${origin}/settings`)).status).toBe(503); // the console is not built here
    expect(upstream.seen).toHaveLength(1);
  });
});

describe('UPSTREAM_URL', () => {
  it('is an http(s) URL, or absent', () => {
    expect(configFromEnv({}).upstreamUrl).toBeUndefined();
    expect(configFromEnv({ UPSTREAM_URL: ' http://openhands:3000 ' }).upstreamUrl?.href).toBe('http://openhands:3000/');
    for (const bad of ['openhands:3000', 'ftp://x', 'http://x/?a=1', 'not a url']) {
      expect(() => configFromEnv({ UPSTREAM_URL: bad })).toThrow(ConfigError);
    }
  });
});
