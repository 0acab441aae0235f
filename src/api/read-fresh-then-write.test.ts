import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../contract/settings';
import { fakeApi, json } from '../testing/fake-api';
import { freshConnectedProviders, providerTokensFor } from './read-fresh-then-write';

describe('freshConnectedProviders', () => {
  it('reads the providers from the settings', async () => {
    fakeApi({
      'GET /api/settings': () => json(200, { ...DEFAULT_SETTINGS, llm_api_key_set: false, provider_tokens_set: { github: null } }),
    });
    await expect(freshConnectedProviders()).resolves.toEqual({ github: null });
  });

  it('only reads: before any settings are stored it says it does not know, and writes nothing', async () => {
    const api = fakeApi({ 'GET /api/settings': () => json(404, { error: 'Settings not found' }) });
    await expect(freshConnectedProviders()).resolves.toBeNull();
    expect(api.calls()).toEqual(['GET /api/settings?absent=null']);
  });
});

describe('providerTokensFor', () => {
  const connected = { github: null, gitlab: 'gitlab.mycorp.com' };

  it('keeps every other connected provider (empty token, same host) when saving one', () => {
    expect(providerTokensFor(connected, { provider: 'bitbucket', token: 'bb', host: null })).toEqual({
      github: { token: '', host: null },
      gitlab: { token: '', host: 'gitlab.mycorp.com' },
      bitbucket: { token: 'bb', host: null },
    });
  });

  it('sends an empty token to keep the stored one when only the host changes', () => {
    expect(providerTokensFor(connected, { provider: 'gitlab', token: null, host: 'git.mycorp.com' })).toEqual({
      github: { token: '', host: null },
      gitlab: { token: '', host: 'git.mycorp.com' },
    });
  });

  it('leaves a provider out to disconnect it', () => {
    expect(providerTokensFor(connected, { provider: 'github', remove: true })).toEqual({
      gitlab: { token: '', host: 'gitlab.mycorp.com' },
    });
  });
});
