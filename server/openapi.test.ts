import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './testing/test-app';

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
    const answer = get.responses['200'].content['application/json'].schema;
    expect(answer.required).toEqual(expect.arrayContaining(['llm_api_key_set', 'search_api_key_set', 'provider_tokens_set']));
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
