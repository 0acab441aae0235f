import { describe, expect, it } from 'vitest';
import { providerTokensFor } from './read-fresh-then-write';

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
