import { describe, expect, it } from 'vitest';
import { fakeApi, json } from '../testing/fake-api';
import { canUpdateSecretValue } from './server-capabilities';

const documentWithPutBody = (schema: unknown, schemas: Record<string, unknown> = {}) => ({
  openapi: '3.1.0',
  paths: { '/api/secrets/{name}': { put: { requestBody: { content: { 'application/json': { schema } } } } } },
  components: { schemas },
});

describe('canUpdateSecretValue', () => {
  it.each([
    ['offered inline', documentWithPutBody({ type: 'object', properties: { name: {}, value: {} } }), true],
    [
      'offered through a $ref',
      documentWithPutBody({ $ref: '#/components/schemas/UpdateSecret' }, { UpdateSecret: { properties: { value: { type: 'string' } } } }),
      true,
    ],
    [
      'offered through allOf',
      documentWithPutBody({ allOf: [{ $ref: '#/components/schemas/Base' }] }, { Base: { properties: { value: {} } } }),
      true,
    ],
    [
      'left out (OpenHands)',
      documentWithPutBody(
        { $ref: '#/components/schemas/POSTCustomSecrets' },
        { POSTCustomSecrets: { properties: { name: {}, description: {} } } },
      ),
      false,
    ],
    ['a document without the route', { openapi: '3.1.0', paths: {} }, false],
  ])('reads the PUT body: value %s', async (_name, document, expected) => {
    const api = fakeApi({ 'GET /openapi.json': () => json(200, document) });
    await expect(canUpdateSecretValue()).resolves.toBe(expected);
    expect(api.calls()).toEqual(['GET /openapi.json']);
  });

  it.each([
    ['cannot be fetched', () => json(404, { detail: 'Not Found' })],
    ['is not JSON', () => new Response('<html></html>', { status: 200 })],
    ['is unreachable', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('assumes values change in place when the document %s', async (_name, answer) => {
    fakeApi({ 'GET /openapi.json': answer });
    await expect(canUpdateSecretValue()).resolves.toBe(true);
  });
});
