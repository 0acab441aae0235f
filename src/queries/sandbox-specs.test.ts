import { describe, expect, it } from 'vitest';
import { fakeApi, json, testQueryClient } from '../testing/fake-api';
import { sandboxSpecKeys } from './sandbox-spec-keys';
import { sandboxSpecsQuery } from './sandbox-specs';

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

  it("reads OpenHands' specs, which have no image, and ours with one", async () => {
    const openHands = { id: 'ghcr.io/openhands/agent-server:1.3.0-python', command: null, created_at: '2026-11-25T10:00:00Z' };
    const ours = { ...openHands, id: 'tools:1', image: 'tools:1' };
    fakeApi({ 'GET /api/v1/sandbox-specs/search': () => json(200, { items: [openHands, ours], next_page_id: null }) });
    const page = await testQueryClient().fetchQuery(sandboxSpecsQuery());
    expect(page.items.map((spec) => spec.image)).toEqual([undefined, 'tools:1']);
  });
});
