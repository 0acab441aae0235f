import { describe, expect, it } from 'vitest';
import { fakeApi, json, testQueryClient } from '../testing/fake-api';
import { secretValueUpdateQuery, serverCapabilityKeys } from './server-capabilities';

describe('secretValueUpdateQuery', () => {
  it('reads the OpenAPI document once per session', async () => {
    const api = fakeApi({ 'GET /openapi.json': () => json(200, { openapi: '3.1.0', paths: {} }) });
    const queryClient = testQueryClient();
    await expect(queryClient.fetchQuery(secretValueUpdateQuery())).resolves.toBe(false);
    await queryClient.fetchQuery(secretValueUpdateQuery());
    expect(api.calls()).toEqual(['GET /openapi.json']);
    expect(queryClient.getQueryData(serverCapabilityKeys.secretValueUpdate())).toBe(false);
  });
});
