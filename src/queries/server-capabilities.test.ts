import { describe, expect, it } from 'vitest';
import { fakeApi, json, testQueryClient } from '../testing/fake-api';
import { serverCapabilityKeys, serverFeaturesQuery } from './server-capabilities';

describe('serverFeaturesQuery', () => {
  it('reads the OpenAPI document once per session', async () => {
    const api = fakeApi({ 'GET /openapi.json': () => json(200, { openapi: '3.1.0', paths: {} }) });
    const queryClient = testQueryClient();
    await expect(queryClient.fetchQuery(serverFeaturesQuery())).resolves.toMatchObject({ secretValueUpdate: false });
    await queryClient.fetchQuery(serverFeaturesQuery());
    expect(api.calls()).toEqual(['GET /openapi.json']);
    expect(queryClient.getQueryData(serverCapabilityKeys.features())).toMatchObject({ kind: 'openhands', secretValueUpdate: false });
  });

  it('tries again after a failed read instead of keeping a guess', async () => {
    let responses = 0;
    const api = fakeApi({
      'GET /openapi.json': () =>
        responses++ === 0 ? json(502, { detail: 'cannot be reached' }) : json(200, { openapi: '3.1.0', paths: {} }),
    });
    const queryClient = testQueryClient();
    await expect(queryClient.fetchQuery(serverFeaturesQuery())).resolves.toMatchObject({ kind: 'openhands' });
    expect(api.calls()).toEqual(['GET /openapi.json', 'GET /openapi.json']);
  });
});
