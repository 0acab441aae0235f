import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/test-app';

/**
 * "No 5xx on bad input", for every route the OpenAPI document lists: odd bodies, content types,
 * path parameters and query strings each get a 4xx with a JSON body, or a 2xx, never a 5xx.
 */
let t: TestApp;
let operations: { method: string; path: string }[];
beforeAll(async () => {
  t = await startTestApp();
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
  operations = Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/'))
    .flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path })));
});
afterAll(async () => {
  await t.close();
});

const ODD_BODIES = ['', 'null', '0', 'true', '"text"', '[]', '{}', '[1,2]', '{"a":', '1e999', '{"__proto__":{"x":1}}', '[['.repeat(5000)];
const ODD_SEGMENTS = ['%00', '..%2F..%2Fetc', 'x'.repeat(5000), '%F0%9F%98%80', '%ZZ', "'; DROP TABLE sandboxes;--"];
const ODD_QUERIES = [
  'limit=abc',
  'limit=-1',
  'limit=1e9',
  'page_id=%00',
  'id=',
  'tail=-5',
  'timeout=999',
  'status__eq=SOMETIMES',
  'sandbox_spec_id=nope',
];

/** The path with every `{param}` replaced by `segment`; a body-less create never starts a real sandbox. */
const url = (path: string, segment = 'unknown-id', query = '') => {
  const filled = path.replace(/\{\w+\}/g, segment);
  const safeQuery = path === '/api/v1/sandboxes' ? `sandbox_spec_id=nope&${query}` : query;
  return safeQuery ? `${filled}?${safeQuery}` : filled;
};

async function expectNo5xx(method: string, target: string, payload?: string, contentType?: string) {
  const response = await t.request({
    method: method as 'GET',
    url: target,
    payload,
    headers: contentType ? { 'content-type': contentType } : {},
  });
  const what = `${method} ${target.slice(0, 80)} ${contentType ?? ''} ${String(payload).slice(0, 20)}`;
  expect(response.statusCode, what).toBeLessThan(500);
  if (response.statusCode >= 400) expect(() => response.json(), what).not.toThrow();
}

describe('odd input never gets a 5xx', () => {
  it('finds the routes to try', () => {
    expect(operations.length).toBeGreaterThan(15);
  });

  it('odd JSON bodies', async () => {
    for (const { method, path } of operations.filter((op) => op.method !== 'GET')) {
      for (const body of ODD_BODIES) await expectNo5xx(method, url(path), body, 'application/json');
    }
  });

  it('other content types', async () => {
    for (const { method, path } of operations.filter((op) => op.method !== 'GET')) {
      await expectNo5xx(method, url(path), 'a=1&b=2', 'application/x-www-form-urlencoded');
      await expectNo5xx(method, url(path), 'plain words', 'text/plain');
      await expectNo5xx(method, url(path), '--b\r\n\r\nx\r\n--b--', 'multipart/form-data; boundary=b');
    }
  });

  it('odd path parameters', async () => {
    for (const { method, path } of operations.filter((op) => op.path.includes('{'))) {
      for (const segment of ODD_SEGMENTS)
        await expectNo5xx(
          method,
          url(path, segment),
          method === 'PUT' ? '{}' : undefined,
          method === 'PUT' ? 'application/json' : undefined,
        );
    }
  });

  it('odd query strings', async () => {
    for (const { method, path } of operations) {
      for (const query of ODD_QUERIES) await expectNo5xx(method, url(path, 'unknown-id', query));
    }
  });
});
