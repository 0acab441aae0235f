import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtServerScript } from '../testing/built-server';
import { startServerProcess } from '../testing/server-process';
import { startTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document generated from the contract', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.SessionApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-Session-API-Key' });

    const post = doc.paths['/api/settings'].post;
    const body = post.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining(['llm_model', 'llm_api_key', 'mcp_config', 'condenser_max_size', 'v1_enabled', 'secrets_store']),
    );
    expect(post.responses['422']).toBeDefined();

    const get = doc.paths['/api/settings'].get;
    // The settings, or null (with absent=null) before any are stored.
    const { anyOf } = get.responses['200'].content['application/json'].schema;
    expect(anyOf).toContainEqual({ type: 'null' });
    const settings = anyOf.find((schema: { type?: string }) => schema.type === 'object');
    expect(get.parameters).toContainEqual(expect.objectContaining({ name: 'absent', in: 'query' }));
    expect(settings.required).toEqual(expect.arrayContaining(['llm_api_key_set', 'search_api_key_set', 'provider_tokens_set']));
    expect(doc.paths['/alive'].get).toBeDefined();
  });

  it('documents every API route the server has', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    const routes = t.app
      .printRoutes({ commonPrefix: false })
      .split('\n')
      .filter((line) => line.includes('/api/'));
    expect(routes.length).toBeGreaterThan(0);
    for (const line of routes) {
      const [, url, methods] = /(\/api\/\S+) \(([^)]+)\)/.exec(line) ?? [];
      for (const method of (methods ?? '').split(', ').filter((m) => m !== 'HEAD')) {
        expect(documented).toContain(`${method} ${url?.replace(/:(\w+)/g, '{$1}')}`);
      }
    }
  });
});

describe('GET /openapi.json compressed', () => {
  it('is sent as brotli or gzip when the client accepts them, the same document either way', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('accept-encoding');
    const br = await t.app.inject({ method: 'GET', url: '/openapi.json', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const gzip = await t.app.inject({ method: 'GET', url: '/openapi.json', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
  });
});

describe('the built server', () => {
  it('keeps the document it made beside the build, where the next start of the same build reads it', async () => {
    const build = path.dirname(builtServerScript('main'));
    const kept = () => fs.readdirSync(build).filter((name) => /^openapi-[\w-]{8}-[0-9a-f]{16}\.json$/.test(name));
    // This test's first server makes the document: none is kept before it.
    for (const name of kept()) fs.rmSync(path.join(build, name), { force: true });
    const documentOf = async () => {
      const server = await startServerProcess({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-openapi-')) });
      try {
        return JSON.parse((await server.call('GET', '/openapi.json')).body) as { paths: Record<string, unknown> };
      } finally {
        await server.stop();
      }
    };
    const made = await documentOf();
    // Its own: servers of other tests, with other routes, may keep theirs beside it meanwhile.
    const read = (name: string) => JSON.parse(fs.readFileSync(path.join(build, name), 'utf8')) as { paths: Record<string, unknown> };
    const name = kept().find((candidate) => JSON.stringify(read(candidate).paths) === JSON.stringify(made.paths));
    expect(name).toBeDefined();
    const file = path.join(build, name!);
    const inFile = read(name!);
    // The next start serves what the file holds.
    fs.writeFileSync(file, JSON.stringify({ ...inFile, paths: { ...inFile.paths, '/kept': {} } }));
    try {
      expect(Object.keys((await documentOf()).paths)).toContain('/kept');
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});
