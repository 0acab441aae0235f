import { MutationObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { CustomSecrets } from '../contract/secrets';
import { deferred, fakeApi, json, testQueryClient } from '../testing/fake-api';
import { createSecretMutation, deleteSecretMutation, secretKeys, secretsQuery, updateSecretMutation } from './secrets';

const list = (...names: string[]): CustomSecrets => ({ custom_secrets: names.map((name) => ({ name, description: null })) });

describe('secretKeys', () => {
  it('puts the list under one root', () => {
    expect(secretKeys.all).toEqual(['secrets']);
    expect(secretKeys.list()).toEqual(['secrets', 'list']);
    expect(secretKeys.list().slice(0, secretKeys.lists().length)).toEqual(secretKeys.lists());
  });
});

describe('secretsQuery', () => {
  it('reads the custom secrets', async () => {
    fakeApi({ 'GET /api/secrets': () => json(200, list('A', 'B')) });
    await expect(testQueryClient().fetchQuery(secretsQuery())).resolves.toEqual(list('A', 'B'));
  });
});

describe('createSecretMutation', () => {
  it('creates and invalidates the list', async () => {
    const api = fakeApi({ 'POST /api/secrets': () => json(201, { message: 'Secret created' }) });
    const queryClient = testQueryClient();
    queryClient.setQueryData(secretKeys.list(), list());
    await new MutationObserver(queryClient, createSecretMutation(queryClient)).mutate({ name: 'A', value: 'v' });
    expect(api.requests).toEqual([{ method: 'POST', url: '/api/secrets', body: { name: 'A', value: 'v' } }]);
    expect(queryClient.getQueryState(secretKeys.list())?.isInvalidated).toBe(true);
  });
});

describe('updateSecretMutation', () => {
  const openApi = (putBody: object) => () =>
    json(200, { paths: { '/api/secrets/{name}': { put: { requestBody: { content: { 'application/json': { schema: putBody } } } } } } });

  it('updates in place where the server can, and invalidates the list', async () => {
    const api = fakeApi({
      'GET /openapi.json': openApi({ properties: { name: {}, value: {} } }),
      'PUT /api/secrets/A': () => json(200, { message: 'Secret updated' }),
    });
    const queryClient = testQueryClient();
    queryClient.setQueryData(secretKeys.list(), list('A'));
    await new MutationObserver(queryClient, updateSecretMutation(queryClient)).mutate({
      name: 'A',
      changes: { name: 'A', value: 'new' },
    });
    expect(api.calls()).toEqual(['GET /openapi.json', 'PUT /api/secrets/A']);
    expect(queryClient.getQueryState(secretKeys.list())?.isInvalidated).toBe(true);
  });

  it('replaces the secret where the server cannot change values in place', async () => {
    const api = fakeApi({
      'GET /openapi.json': openApi({ properties: { name: {}, description: {} } }),
      'DELETE /api/secrets/A': () => json(200, { message: 'Secret deleted' }),
      'POST /api/secrets': () => json(201, { message: 'Secret created' }),
    });
    const queryClient = testQueryClient();
    await new MutationObserver(queryClient, updateSecretMutation(queryClient)).mutate({
      name: 'A',
      changes: { name: 'A', value: 'new' },
    });
    expect(api.calls()).toEqual(['GET /openapi.json', 'DELETE /api/secrets/A', 'POST /api/secrets']);
  });
});

describe('deleteSecretMutation', () => {
  it('removes the row at once and keeps it removed when the server agrees', async () => {
    const response = deferred<Response>();
    fakeApi({ 'DELETE /api/secrets/B': () => response.promise });
    const queryClient = testQueryClient();
    queryClient.setQueryData(secretKeys.list(), list('A', 'B', 'C'));

    const deleting = new MutationObserver(queryClient, deleteSecretMutation(queryClient)).mutate('B');
    await vi.waitFor(() => expect(queryClient.getQueryData(secretKeys.list())).toEqual(list('A', 'C')));
    response.resolve(json(200, { message: 'Secret deleted' }));
    await deleting;

    expect(queryClient.getQueryData(secretKeys.list())).toEqual(list('A', 'C'));
    expect(queryClient.getQueryState(secretKeys.list())?.isInvalidated).toBe(true);
  });

  it('puts the row back where it was when the server refuses, keeping other changes', async () => {
    const response = deferred<Response>();
    fakeApi({ 'DELETE /api/secrets/B': () => response.promise });
    const queryClient = testQueryClient();
    queryClient.setQueryData(secretKeys.list(), list('A', 'B', 'C'));

    const deleting = new MutationObserver(queryClient, deleteSecretMutation(queryClient)).mutate('B');
    await vi.waitFor(() => expect(queryClient.getQueryData(secretKeys.list())).toEqual(list('A', 'C')));
    queryClient.setQueryData(secretKeys.list(), list('A', 'C', 'D')); // another one added meanwhile
    response.resolve(json(500, { detail: 'down' }));

    await expect(deleting).rejects.toMatchObject({ status: 500 });
    expect(queryClient.getQueryData(secretKeys.list())).toEqual(list('A', 'B', 'C', 'D'));
  });

  it('counts a secret that is gone already as deleted', async () => {
    fakeApi({ 'DELETE /api/secrets/B': () => json(404, { error: 'Secret with ID B not found' }) });
    const queryClient = testQueryClient();
    queryClient.setQueryData(secretKeys.list(), list('A', 'B'));
    await new MutationObserver(queryClient, deleteSecretMutation(queryClient)).mutate('B');
    expect(queryClient.getQueryData(secretKeys.list())).toEqual(list('A'));
  });
});
