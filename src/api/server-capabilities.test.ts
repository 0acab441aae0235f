import { describe, expect, it } from 'vitest';
import { fakeApi, json } from '../testing/fake-api';
import { readServerFeatures } from './server-capabilities';
import { ASSUMED, featuresFromDocument } from './server-features';

const documentWithPutBody = (schema: unknown, schemas: Record<string, unknown> = {}) => ({
  openapi: '3.1.0',
  paths: { '/api/secrets/{name}': { put: { requestBody: { content: { 'application/json': { schema } } } } } },
  components: { schemas },
});

describe('readServerFeatures: secret values', () => {
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
    await expect(readServerFeatures()).resolves.toMatchObject({ secretValueUpdate: expected });
    expect(api.calls()).toEqual(['GET /openapi.json']);
  });

  it.each([
    ['is not there (404)', () => json(404, { detail: 'Not Found' })],
    ['is not JSON', () => new Response('<html></html>', { status: 200 })],
    ['has no paths', () => json(200, { openapi: '3.1.0' })],
  ])('assumes values change in place when the document %s', async (_name, response) => {
    fakeApi({ 'GET /openapi.json': response });
    await expect(readServerFeatures()).resolves.toMatchObject({ kind: 'unknown', secretValueUpdate: true, eventStream: true });
  });

  it.each([
    ['is unreachable', () => Promise.reject(new TypeError('Failed to fetch')), 'network'],
    ['fails on the server (502)', () => json(502, { detail: 'OpenHands at http://oh cannot be reached: ECONNREFUSED' }), 'http'],
  ])('throws, rather than guessing, when the document %s', async (_name, response, kind) => {
    fakeApi({ 'GET /openapi.json': response });
    await expect(readServerFeatures()).rejects.toMatchObject({ kind });
  });
});

describe('featuresFromDocument', () => {
  const bodySchema = (schema: unknown) => ({ requestBody: { content: { 'application/json': { schema } } } });
  const route = (parameters: string[] = []) => ({ parameters: parameters.map((name) => ({ name, in: 'query' })) });

  it('reads OpenHands: no stream, logs, MCP test, capacity or archive; sandbox filters ignored', () => {
    const document = {
      openapi: '3.1.0',
      paths: {
        '/api/v1/sandboxes/search': { get: route(['page_id', 'limit']) },
        '/api/v1/events/search': { get: route(['conversation_id__eq']) },
        '/api/conversations/{conversation_id}': { patch: {}, delete: {} },
      },
    };
    expect(featuresFromDocument(document)).toEqual({
      kind: 'openhands',
      secretValueUpdate: false,
      eventStream: false,
      sandboxLogs: false,
      mcpTest: false,
      sandboxCapacity: false,
      workspace: false,
      conversationsBySandbox: false,
      conversationArchive: false,
      sandboxFilters: false,
      conversationSort: false,
      agentControls: false,
      sandboxApiKeyStored: false,
      partialSettingsUpdate: false,
      settingsNotUsed: {},
      team: false,
      apiKeys: false,
      identityProvider: false,
      taskStarters: false,
      usage: false,
      sandboxResources: false,
    });
  });

  it('reads ours: every feature, and the Settings it does not use', () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'ours', 'x-settings-not-used': { search_api_key: 'no search tool', v1_enabled: 'no V0', language: 3 } },
      paths: {
        '/api/v1/app-conversations/{conversation_id}/events/stream': { get: {} },
        '/api/v1/app-conversations/{conversation_id}': { patch: bodySchema({ $ref: '#/components/schemas/Patch' }) },
        '/api/v1/sandboxes/search': { get: route(['status__eq', 'sandbox_spec_id__eq']) },
        '/api/v1/app-conversations/search': { get: route(['sort_order']) },
        '/api/v1/sandboxes/{sandbox_id}/logs': { get: {} },
        '/api/mcp/test': { post: {} },
        '/api/v1/sandboxes/capacity': { get: {} },
        '/api/v1/app-conversations/{conversation_id}/workspace/changes': { get: {} },
        '/api/v1/app-conversations/by-sandbox': { get: {} },
        '/api/v1/app-conversations/{conversation_id}/send-message': { post: {} },
        '/api/v1/app-conversations/{conversation_id}/pause': { post: {} },
        '/api/v1/app-conversations/{conversation_id}/run': { post: {} },
        '/api/v1/app-conversations/{conversation_id}/confirm': { post: {} },
        '/api/secrets/{name}': { put: bodySchema({ properties: { value: {} } }) },
        '/api/organizations/{org_id}/members': { get: {} },
        '/api/keys': { get: {} },
        '/sign-in/oidc': { get: {} },
        '/api/user/solvability': { post: {} },
        '/api/usage': { get: {} },
        '/api/v1/sandboxes/{sandbox_id}/resources': { get: {} },
      },
      components: { schemas: { Patch: { properties: { archived: { type: 'boolean' } } } } },
    };
    expect(featuresFromDocument(document)).toEqual({
      ...ASSUMED,
      kind: 'agent-console',
      identityProvider: true,
      partialSettingsUpdate: true,
      settingsNotUsed: { search_api_key: 'no search tool', v1_enabled: 'no V0' },
    });
  });

  it('reads the Settings an older server of ours does not use, named without a reason', () => {
    const document = { openapi: '3.1.0', info: { 'x-settings-not-used': ['email', 'search_api_key', 7] }, paths: {} };
    expect(featuresFromDocument(document).settingsNotUsed).toEqual({ email: '', search_api_key: '' });
  });

  it('reads a newer OpenHands: a PATCH without `archived` and send-message alone offer neither archiving nor agent controls', () => {
    const document = {
      openapi: '3.1.0',
      paths: {
        '/api/v1/app-conversations/{conversation_id}': { patch: bodySchema({ properties: { title: {} } }), delete: {} },
        '/api/v1/app-conversations/{conversation_id}/send-message': { post: {} },
      },
    };
    expect(featuresFromDocument(document)).toMatchObject({ kind: 'openhands', conversationArchive: false, agentControls: false });
  });
});
