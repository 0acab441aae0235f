import { describe, expect, it } from 'vitest';
import { fakeApi, json, testQueryClient } from '../testing/fake-api';
import { sandboxSpecKeys, sandboxSpecsQuery } from './sandbox-specs';

describe('sandboxSpecsQuery', () => {
  it('reads every spec under the specs’ list key', async () => {
    const spec = {
      id: 'agent-server',
      command: ['node', 'agent.js'],
      created_at: '2026-11-25T10:00:00Z',
      initial_env: {},
      working_dir: '',
    };
    const api = fakeApi({ 'GET /api/v1/sandbox-specs/search': () => json(200, { items: [spec], next_page_id: null }) });
    const queryClient = testQueryClient();
    await queryClient.fetchQuery(sandboxSpecsQuery());
    expect(api.calls()).toEqual(['GET /api/v1/sandbox-specs/search?limit=100']);
    expect(sandboxSpecKeys.list()).toEqual(['sandbox-specs', 'list']);
    expect(queryClient.getQueryData(sandboxSpecKeys.list())).toMatchObject({ items: [{ id: 'agent-server' }] });
  });
});
