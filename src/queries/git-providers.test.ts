import { MutationObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../contract/settings';
import { fakeApi, json, testQueryClient } from '../testing/fake-api';
import { connectedProvidersQuery, disconnectAllProvidersMutation, saveProviderMutation } from './git-providers';
import { settingsKeys } from './settings';

const settings = (provider_tokens_set: Record<string, string | null>) => ({
  ...DEFAULT_SETTINGS,
  llm_api_key_set: false,
  provider_tokens_set,
});

describe('connectedProvidersQuery', () => {
  it('shares the settings’ cache entry and selects the connected providers', async () => {
    expect(connectedProvidersQuery().queryKey).toEqual(settingsKeys.current());
    fakeApi({ 'GET /api/settings': () => json(200, settings({ github: null })) });
    const queryClient = testQueryClient();
    const options = connectedProvidersQuery();
    const data = await queryClient.fetchQuery(options);
    expect(options.select?.(data)).toEqual({ github: null });
    expect(options.select?.(null)).toEqual({});
  });
});

describe('saveProviderMutation', () => {
  it('sends the change with the providers the server has right now, and invalidates the settings', async () => {
    const api = fakeApi({
      'GET /api/settings': () => json(200, settings({ gitlab: 'gitlab.mycorp.com' })),
      'POST /api/add-git-providers': () => json(200, { message: 'Git providers stored' }),
    });
    const queryClient = testQueryClient();
    queryClient.setQueryData(settingsKeys.current(), settings({}));

    await new MutationObserver(queryClient, saveProviderMutation(queryClient)).mutate({ provider: 'github', token: 'ghp_x', host: null });

    expect(api.calls()).toEqual(['GET /api/settings?absent=null', 'POST /api/add-git-providers']);
    expect(api.requests[1]?.body).toEqual({
      provider_tokens: { gitlab: { token: '', host: 'gitlab.mycorp.com' }, github: { token: 'ghp_x', host: null } },
    });
    expect(queryClient.getQueryState(settingsKeys.current())?.isInvalidated).toBe(true);
  });

  it('stores default settings first when the server has none (OpenHands would drop the other providers)', async () => {
    let stored = false;
    const api = fakeApi({
      'GET /api/settings': () => (stored ? json(200, settings({})) : json(404, { error: 'Settings not found' })),
      'POST /api/settings': () => {
        stored = true;
        return json(200, { message: 'Settings stored' });
      },
      'POST /api/add-git-providers': () => json(200, { message: 'Git providers stored' }),
    });
    const queryClient = testQueryClient();
    await new MutationObserver(queryClient, saveProviderMutation(queryClient)).mutate({ provider: 'github', remove: true });
    expect(api.calls()).toEqual([
      'GET /api/settings?absent=null',
      'POST /api/settings',
      'GET /api/settings?absent=null',
      'POST /api/add-git-providers',
    ]);
  });
});

describe('disconnectAllProvidersMutation', () => {
  it('unsets every token and invalidates the settings, also when it fails', async () => {
    const api = fakeApi({ 'POST /api/unset-provider-tokens': () => json(500, { detail: 'down' }) });
    const queryClient = testQueryClient();
    queryClient.setQueryData(settingsKeys.current(), settings({ github: null }));
    await expect(new MutationObserver(queryClient, disconnectAllProvidersMutation(queryClient)).mutate()).rejects.toMatchObject({
      status: 500,
    });
    expect(api.calls()).toEqual(['POST /api/unset-provider-tokens']);
    expect(queryClient.getQueryState(settingsKeys.current())?.isInvalidated).toBe(true);
  });
});
