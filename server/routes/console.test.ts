import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
let consoleDir: string;
const INDEX = '<!doctype html><title>Agent Console</title>';
/** What the build's page-preloads step writes: a page per URL that preloads that URL's chunks. */
const SETTINGS_PAGE = '<!doctype html><title>Agent Console</title><link rel="modulepreload" href="/assets/settings-page-1.js">';
const CONVERSATION_PAGE = '<!doctype html><title>Agent Console</title><link rel="modulepreload" href="/assets/conversation-page-1.js">';

beforeAll(async () => {
  consoleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-dist-'));
  fs.mkdirSync(path.join(consoleDir, 'assets'));
  fs.writeFileSync(path.join(consoleDir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(consoleDir, 'assets', 'index-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(consoleDir, 'favicon.svg'), '<svg/>');
  fs.mkdirSync(path.join(consoleDir, 'pages'));
  fs.writeFileSync(path.join(consoleDir, 'pages', 'settings.html'), SETTINGS_PAGE);
  fs.writeFileSync(path.join(consoleDir, 'pages', 'conversation.html'), CONVERSATION_PAGE);
  fs.writeFileSync(
    path.join(consoleDir, 'pages.json'),
    JSON.stringify([
      { path: '/settings', file: 'pages/settings.html' },
      { path: '/conversations/:id', file: 'pages/conversation.html' },
      // As a build running beside the server may leave it for a moment: listed, not (yet) written.
      { path: '/sandboxes', file: 'pages/sandboxes.html' },
    ]),
  );
  // What the build's precompress step writes beside each file.
  for (const file of ['index.html', 'assets/index-abc123.js', 'pages/settings.html']) {
    const content = fs.readFileSync(path.join(consoleDir, file));
    fs.writeFileSync(path.join(consoleDir, `${file}.br`), zlib.brotliCompressSync(content));
    fs.writeFileSync(path.join(consoleDir, `${file}.gz`), zlib.gzipSync(content));
  }
  t = await startTestApp({ consoleDir });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(consoleDir, { recursive: true, force: true });
});

describe('serving the console', () => {
  // index.html where the build made no page of its own; else the page that preloads what it loads.
  it.each([
    ['/', INDEX],
    ['/settings/unknown', INDEX],
    ['/conversations', INDEX],
    ['/sandboxes?status=RUNNING', INDEX],
    ['/sandboxes', INDEX],
    ['/settings', SETTINGS_PAGE],
    ['/settings?tab=llm', SETTINGS_PAGE],
    ['/conversations/abc123', CONVERSATION_PAGE],
    ['/conversations/abc123/', CONVERSATION_PAGE],
  ])('serves %s with the HTML the build made for it', async (url, page) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(page);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('serves hashed assets with a long cache life', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('console.log(1)');
    expect(response.headers['cache-control']).toContain('immutable');
    expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
    const head = await t.app.inject({ method: 'HEAD', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(Number(head.headers['content-length'])).toBe(zlib.gzipSync('console.log(1)').length);
  });

  it.each([
    ['br;q=0, gzip, deflate', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['GZIP', 'gzip'],
    ['br;q=0.5, gzip;q=0.9', 'gzip'],
    ['gzip;q=0, br;q=0', undefined],
  ])('responds to Accept-Encoding "%s" with the %s copy', async (acceptEncoding, encoding) => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': acceptEncoding } });
    expect(response.headers['content-encoding']).toBe(encoding);
    const body = encoding === 'gzip' ? zlib.gunzipSync(response.rawPayload) : response.rawPayload;
    expect(body.toString()).toBe('console.log(1)');
  });

  it.each([
    ['br', (body: Buffer) => zlib.brotliDecompressSync(body)],
    ['gzip', (body: Buffer) => zlib.gunzipSync(body)],
  ] as const)('sends the %s copy the build made to a browser that takes it, and says the response varies', async (encoding, decode) => {
    for (const url of ['/assets/index-abc123.js', '/settings']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': `${encoding}, identity` } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-encoding'], url).toBe(encoding);
      expect(response.headers.vary, url).toMatch(/accept-encoding/i);
      expect(decode(response.rawPayload).toString(), url).toBe(url === '/settings' ? SETTINGS_PAGE : 'console.log(1)');
    }
    const plain = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  it('serves assets of a build made after the server started', async () => {
    fs.writeFileSync(path.join(consoleDir, 'assets', 'index-new456.js'), 'console.log(2)');
    const response = await t.app.inject({ method: 'GET', url: '/assets/index-new456.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('console.log(2)');
    expect(response.headers['cache-control']).toContain('immutable');
    expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
    expect((await t.app.inject({ method: 'GET', url: '/assets/..%2Findex.html' })).statusCode).toBe(404);
  });

  it('serves other public files', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/favicon.svg' })).body).toBe('<svg/>');
  });

  it('returns 404, not the app shell, for a missing asset or a non-GET', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/assets/gone.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Not Found' });
    expect((await t.app.inject({ method: 'POST', url: '/settings' })).statusCode).toBe(404);
  });

  it('never serves the app shell under /api', async () => {
    const response = await t.request({ method: 'GET', url: '/api/unknown' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not Found' });
  });
});

describe('without a built console', () => {
  it('says how to build it instead of failing', async () => {
    const bare = await startTestApp();
    try {
      const response = await bare.app.inject({ method: 'GET', url: '/settings' });
      expect(response.statusCode).toBe(503);
      expect(response.body).toMatch(/npm run build/);
      expect((await bare.app.inject({ method: 'GET', url: '/alive' })).statusCode).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
