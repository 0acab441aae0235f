import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conflict, Invalid, NotFound, Unavailable, verbatim } from '../domain-errors';
import { english } from '../i18n/english';
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../logger';
import { responseFor, routesWithOwnResponses } from './error-responses';
import { buildLlmProxyApp } from './llm-proxy-app';
import { startTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
let llmProxyApp: FastifyInstance;
beforeAll(async () => {
  t = await startTestApp();
  llmProxyApp = await buildLlmProxyApp(t.services.llmProxy, t.services.webSearch, t.app.log as Logger);
});
afterAll(async () => {
  await llmProxyApp.close();
  await t.close();
});

describe('the table of error responses', () => {
  it('names only routes the server has (a typo would silently fall back to the defaults)', () => {
    for (const route of routesWithOwnResponses()) {
      const [method, url] = route.split(' ') as [string, string];
      const has = (app: FastifyInstance) => app.hasRoute({ method: method as 'GET', url });
      expect(has(t.app) || has(llmProxyApp), route).toBe(true);
    }
  });

  it('responds in FastAPI shapes by default', () => {
    expect(responseFor('GET /api/elsewhere', new NotFound(verbatim('Thing 7 not found')), english)).toEqual({
      status: 404,
      body: { detail: 'Thing 7 not found' },
    });
    expect(responseFor('POST /api/elsewhere', new Conflict(verbatim('Taken')), english)).toEqual({
      status: 409,
      body: { detail: 'Taken' },
    });
    expect(responseFor('POST /api/elsewhere', new Unavailable(verbatim('Later')), english)).toEqual({
      status: 503,
      body: { detail: 'Later' },
    });
    expect(responseFor('POST /api/elsewhere', new Invalid(['a', 0], verbatim('Bad'), 'x'), english)).toEqual({
      status: 422,
      body: { detail: [{ type: 'value_error', loc: ['body', 'a', 0], msg: 'Value error, Bad', input: 'x', ctx: { error: {} } }] },
    });
  });

  it('responds as OpenHands does where it differs', () => {
    expect(responseFor('PUT /api/secrets/:name', new Conflict(verbatim('Secret A already exists')), english)).toEqual({
      status: 400,
      body: { message: 'Secret A already exists' },
    });
    expect(responseFor('DELETE /api/secrets/:name', new NotFound(verbatim('Secret with ID A not found')), english)).toEqual({
      status: 404,
      body: { error: 'Secret with ID A not found' },
    });
    expect(responseFor('POST /api/v1/sandboxes/:sandbox_id/pause', new NotFound(verbatim('Sandbox x not found')), english)).toEqual({
      status: 404,
      body: { detail: 'Not Found' },
    });
  });
});
