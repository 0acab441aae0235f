import { MutationObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { fakeApi, json, testQueryClient } from '../testing/fake-api';
import { mcpKeys, savedMcpServerTestQuery, testMcpServerMutation } from './mcp';

const entry = { kind: 'stdio' as const, name: 'fetch', command: 'uvx', args: [], env: {} };
const tools = { ok: true, tools: [{ name: 'fetch', description: 'Fetches' }] };

describe('savedMcpServerTestQuery', () => {
  it('tests the entry under a key of its own and keeps nothing once unused', async () => {
    const api = fakeApi({ 'POST /api/mcp/test': () => json(200, tools) });
    const options = savedMcpServerTestQuery(entry);
    expect(options.queryKey).toEqual(mcpKeys.test(entry));
    expect(options.queryKey.slice(0, 2)).toEqual(mcpKeys.tests());
    expect(options.gcTime).toBe(0);
    await expect(testQueryClient().fetchQuery(options)).resolves.toMatchObject({ ok: true });
    expect(api.requests).toEqual([{ method: 'POST', url: '/api/mcp/test?timeout=10', body: entry }]);
  });
});

describe('testMcpServerMutation', () => {
  it('fails on a server without the endpoint (the console offers no test there)', async () => {
    fakeApi({});
    const queryClient = testQueryClient();
    await expect(new MutationObserver(queryClient, testMcpServerMutation()).mutate(entry)).rejects.toMatchObject({ status: 404 });
  });
});
