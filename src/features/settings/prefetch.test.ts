import { afterEach, describe, expect, it, vi } from 'vitest';
import { optionsQuery } from '../../queries/options';
import { settingsQuery } from '../../queries/settings';
import { fakeApi, json, testQueryClient } from '../../testing/fake-api';
import { prefetch } from './prefetch';

describe('the Settings page’s data, asked for while its code loads', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('holds the settings and every list of choices before the form first renders, which would render again for each that came later', async () => {
    const api = fakeApi({
      'GET /api/settings': () => json(200, null),
      'GET /api/options/models': () => json(200, ['demo/scripted']),
      'GET /api/options/agents': () => json(200, ['CodeActAgent']),
      'GET /api/options/security-analyzers': () => json(200, ['llm']),
    });
    const client = testQueryClient();
    prefetch(client);
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));
    expect(api.calls().toSorted()).toEqual([
      'GET /api/options/agents',
      'GET /api/options/models',
      'GET /api/options/security-analyzers',
      'GET /api/settings?absent=null',
    ]);
    expect(client.getQueryData(settingsQuery().queryKey)).toBeNull();
    expect(client.getQueryData(optionsQuery('agents').queryKey)).toEqual(['CodeActAgent']);
  });
});
