import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_SESSION_KEY, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const UNAUTHORIZED = { detail: 'Unauthorized' };

describe('session key', () => {
  it.each([
    ['no header', {}],
    ['a wrong key', { 'x-session-api-key': 'wrong' }],
    ['a key that is a prefix of the right one', { 'x-session-api-key': TEST_SESSION_KEY.slice(0, -1) }],
    ['an empty key', { 'x-session-api-key': '' }],
    ['a wrong bearer token', { authorization: 'Bearer wrong' }],
    ['a key in another scheme', { authorization: `Basic ${TEST_SESSION_KEY}` }],
  ])('returns 401 for %s', async (_name, headers) => {
    const response = await t.app.inject({ method: 'GET', url: '/api/settings', headers });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(UNAUTHORIZED);
  });

  it('takes the key as a bearer token too, as OpenHands takes its API keys', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/settings?absent=null',
      headers: { authorization: `Bearer ${TEST_SESSION_KEY}` },
    });
    expect(response.statusCode).toBe(200);
  });

  it('does not take the key from the query string', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/settings?X-Session-API-Key=${TEST_SESSION_KEY}&session_api_key=${TEST_SESSION_KEY}`,
    });
    expect(response.statusCode).toBe(401);
  });

  it('is checked before routing: an unknown /api path without the key is a 401', async () => {
    for (const url of ['/api/does-not-exist', '/api', '/api/v1/sandboxes/search', '/%61pi/settings']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(401);
      expect(response.json()).toEqual(UNAUTHORIZED);
    }
  });

  it('is checked before the body is parsed or validated', async () => {
    for (const payload of ['{not json', '{"max_iterations": "x"}']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/settings',
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode).toBe(401);
    }
  });

  it('lets the right key through', async () => {
    expect((await t.getSettings()).statusCode).toBe(404); // nothing stored yet, but admitted
  });

  it('leaves /alive, /health and /openapi.json open', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/alive' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/health' })).json()).toBe('OK');
    expect((await t.app.inject({ method: 'GET', url: '/openapi.json' })).statusCode).toBe(200);
  });

  it('responds to CORS preflights from a local console without the key', async () => {
    const response = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/settings',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-session-api-key,content-type',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(String(response.headers['access-control-allow-headers'])).toContain('x-session-api-key');
  });

  it('does not allow arbitrary origins', async () => {
    const response = await t.request({ method: 'GET', url: '/api/settings', headers: { origin: 'https://evil.example' } });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('other statuses', () => {
  it('returns 404 JSON for an unknown /api route', async () => {
    const response = await t.request({ method: 'GET', url: '/api/nothing/here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not Found' });
  });

  it('returns 404 JSON for a known path with an unsupported method', async () => {
    const response = await t.request({ method: 'DELETE', url: '/api/settings' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not Found' });
  });

  it('returns 413 for an oversized body', async () => {
    const payload = JSON.stringify({ language: 'x'.repeat(2 * 1024 * 1024) });
    const response = await t.request({ method: 'POST', url: '/api/settings', payload, headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ detail: 'Request body is too large' });
  });

  it('returns 415 for a body that is not JSON', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/settings',
      payload: 'language=fr',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().detail).toMatch(/application\/json/);
  });

  it('marks API responses as not cacheable', async () => {
    expect((await t.getSettings()).headers['cache-control']).toBe('no-store');
  });
});

describe('every method under /api needs the key', () => {
  it.each(['OPTIONS', 'HEAD', 'PUT', 'PATCH', 'DELETE'] as const)('%s without the key is a 401', async (method) => {
    const response = await t.app.inject({ method, url: '/api/settings' });
    expect(response.statusCode).toBe(401);
  });

  it('an oversized body without the key is a 401, not a 413', async () => {
    const payload = JSON.stringify({ language: 'x'.repeat(2 * 1024 * 1024) });
    const response = await t.app.inject({ method: 'POST', url: '/api/settings', payload, headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(401);
  });
});
