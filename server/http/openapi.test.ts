import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
