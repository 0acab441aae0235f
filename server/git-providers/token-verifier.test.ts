import { describe, expect, it } from 'vitest';
import { identityRequest } from './token-verifier';

describe('identityRequest', () => {
  it.each([
    ['github', null, 'https://api.github.com/user'],
    ['github', 'github.com', 'https://api.github.com/user'],
    ['github', 'https://GitHub.com/', 'https://api.github.com/user'],
    ['github', 'ghe.mycorp.com', 'https://ghe.mycorp.com/api/v3/user'],
    ['gitlab', null, 'https://gitlab.com/api/v4/user'],
    ['gitlab', 'http://127.0.0.1:8929/gitlab', 'http://127.0.0.1:8929/gitlab/api/v4/user'],
    ['bitbucket', null, 'https://api.bitbucket.org/2.0/user'],
    ['bitbucket', 'bitbucket.mycorp.com', 'https://api.bitbucket.mycorp.com/2.0/user'],
    ['azure_devops', null, 'https://app.vssps.visualstudio.com/_apis/profile/profiles/me?api-version=7.1'],
    ['azure_devops', 'https://devops.mycorp.com/tfs', 'https://devops.mycorp.com/tfs/_apis/connectionData'],
  ] as const)('asks %s at %s: %s', (provider, host, url) => {
    expect(identityRequest(provider, 't0ken', host)?.url).toBe(url);
  });

  it('uses the auth each provider takes', () => {
    expect(identityRequest('github', 'tok', null)?.authorization).toBe('Bearer tok');
    expect(identityRequest('bitbucket', 'ada:app-password', null)?.authorization).toBe(
      `Basic ${Buffer.from('ada:app-password').toString('base64')}`,
    );
    expect(identityRequest('azure_devops', 'pat', null)?.authorization).toBe(`Basic ${Buffer.from(':pat').toString('base64')}`);
  });

  it('has nothing to ask for enterprise SSO', () => {
    expect(identityRequest('enterprise_sso', 'tok', 'sso.mycorp.com')).toBeUndefined();
  });
});
