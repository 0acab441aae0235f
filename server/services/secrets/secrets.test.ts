import { sessionKeyCaller } from '../../authz/caller';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../../../test-support/git/fake-provider';
import { databasesUnderTest } from '../../testing/databases';
import { startTestApp, type TestApp } from '../../testing/test-app';

describe.each(databasesUnderTest())('on %s', (database) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp({ database });
  });
  afterEach(async () => {
    await t.close();
  });

  const json = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
    t.request({
      method,
      url,
      ...(body === undefined ? {} : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });

  const providers = async () => {
    await t.postSettings({});
    return (await t.getSettings()).json().provider_tokens_set;
  };

  const addProviders = (provider_tokens: unknown, extra: Record<string, unknown> = {}) =>
    json('POST', '/api/add-git-providers', { provider_tokens, ...extra });

  describe('POST /api/add-git-providers', () => {
    it('makes GET /api/settings respond (with defaults) once a provider is connected, even before any settings save', async () => {
      expect((await t.getSettings()).statusCode).toBe(404);
      await addProviders({ github: { token: 'ghp_first' } });
      const response = await t.getSettings();
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ provider_tokens_set: { github: null }, llm_model: null, enable_default_condenser: true });
    });

    it('stores tokens and hosts, shown only as provider_tokens_set', async () => {
      const response = await addProviders({
        github: { token: 'ghp_first', host: null },
        gitlab: { token: 'glpat-first', host: 'gitlab.mycorp.com' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: 'Git providers stored' });
      expect(await providers()).toEqual({ github: null, gitlab: 'gitlab.mycorp.com' });
    });

    it('replaces the set: an empty token keeps the stored one with the new host, providers left out go', async () => {
      await addProviders({ github: { token: 'ghp_first', host: null }, gitlab: { token: 'glpat-first', host: 'gitlab.mycorp.com' } });
      await addProviders({ github: { token: '', host: 'ghe.mycorp.com' } });
      expect(await providers()).toEqual({ github: 'ghe.mycorp.com' });
      expect(await t.services.secrets.readProviderTokens(sessionKeyCaller)).toEqual([
        { provider: 'github', token: 'ghp_first', host: 'ghe.mycorp.com' },
      ]);
      // The host is always the one sent: absent means the public host, as in OpenHands.
      await addProviders({ github: { token: 'ghp_second' } });
      expect(await t.services.secrets.readProviderTokens(sessionKeyCaller)).toEqual([
        { provider: 'github', token: 'ghp_second', host: null },
      ]);
    });

    it('drops a provider sent without a token when none is stored, and clears all with {}', async () => {
      await addProviders({ github: { token: 'ghp_x' }, bitbucket: { token: '', host: 'bitbucket.org' } });
      expect(await providers()).toEqual({ github: null });
      await addProviders({});
      expect(await providers()).toEqual({});
    });

    it('validates mcp_config and otherwise ignores it', async () => {
      await t.postSettings({ mcp_config: { stdio_servers: [{ name: 'kept', command: 'uvx' }] } });
      expect((await addProviders({}, { mcp_config: { stdio_servers: [] } })).statusCode).toBe(200);
      expect((await t.getSettings()).json().mcp_config.stdio_servers).toHaveLength(1);
      const bad = await addProviders({}, { mcp_config: { foo: 1 } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().detail[0].loc).toEqual(['body', 'mcp_config', 'foo']);
    });

    it.each([
      [
        'an unknown provider',
        { gitbucket: { token: 'x' } },
        ['body', 'provider_tokens', 'gitbucket', '[key]'],
        "Input should be 'github', 'gitlab', 'bitbucket', 'azure_devops' or 'enterprise_sso'",
      ],
      [
        'a token that is not a string',
        { github: { token: 5 } },
        ['body', 'provider_tokens', 'github', 'token'],
        'Input should be a valid string',
      ],
      [
        'a token with a space',
        { github: { token: 'ghp_a b' } },
        ['body', 'provider_tokens', 'github', 'token'],
        'Token must not contain spaces or line breaks',
      ],
      [
        'a token with a line break',
        { github: { token: 'ghp_ab\n' } },
        ['body', 'provider_tokens', 'github', 'token'],
        'Token must not contain spaces or line breaks',
      ],
      [
        'a host with a path but no scheme',
        { gitlab: { token: 'x', host: 'gitlab.mycorp.com/path' } },
        ['body', 'provider_tokens', 'gitlab', 'host'],
        'Host must be a domain',
      ],
      [
        'an ftp host',
        { gitlab: { token: 'x', host: 'ftp://gitlab.mycorp.com' } },
        ['body', 'provider_tokens', 'gitlab', 'host'],
        'Host must be a domain',
      ],
      ['provider_tokens that is a list', [], ['body', 'provider_tokens'], 'Input should be a valid dictionary'],
    ])('returns 422 for %s', async (_name, tokens, loc, message) => {
      const response = await addProviders(tokens);
      expect(response.statusCode).toBe(422);
      const [entry] = response.json().detail;
      expect(entry.loc).toEqual(loc);
      expect(entry.msg).toContain(message);
    });

    it.each([
      'gitlab.mycorp.com',
      'gitlab.mycorp.com:8443',
      'localhost:8929',
      '10.0.0.5',
      'https://gitlab.mycorp.com',
      'http://127.0.0.1:8929/gitlab',
    ])('accepts host %s', async (host) => {
      expect((await addProviders({ gitlab: { token: 'x', host } })).statusCode).toBe(200);
    });
  });

  describe('POST /api/unset-provider-tokens', () => {
    it('removes every token and keeps custom secrets', async () => {
      await addProviders({ github: { token: 'ghp_x' } });
      await json('POST', '/api/secrets', { name: 'KEEP_ME', value: 'v' });
      const response = await json('POST', '/api/unset-provider-tokens');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: 'Unset Git provider tokens' });
      expect(await providers()).toEqual({});
      expect((await json('GET', '/api/secrets')).json()).toEqual({ custom_secrets: [{ name: 'KEEP_ME', description: '' }] });
    });
  });

  describe('custom secrets', () => {
    it('create, list, rename, describe, change the value and delete', async () => {
      expect((await json('GET', '/api/secrets')).json()).toEqual({ custom_secrets: [] });
      const created = await json('POST', '/api/secrets', { name: 'API_TOKEN', value: 'first-value', description: 'for the API' });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toEqual({ message: 'Secret created successfully' });
      await json('POST', '/api/secrets', { name: 'OTHER', value: 'x' });
      expect((await json('GET', '/api/secrets')).json()).toEqual({
        custom_secrets: [
          { name: 'API_TOKEN', description: 'for the API' },
          { name: 'OTHER', description: '' },
        ],
      });

      const renamed = await json('PUT', '/api/secrets/API_TOKEN', { name: 'SERVICE_TOKEN', description: 'renamed' });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toEqual({ message: 'Secret updated successfully' });
      await json('PUT', '/api/secrets/SERVICE_TOKEN', { value: 'second-value' });
      expect(await t.services.secrets.readCustomSecrets(sessionKeyCaller)).toEqual([
        { name: 'SERVICE_TOKEN', value: 'second-value' },
        { name: 'OTHER', value: 'x' },
      ]);

      const deleted = await json('DELETE', '/api/secrets/SERVICE_TOKEN');
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ message: 'Secret deleted successfully' });
      expect((await json('GET', '/api/secrets')).json()).toEqual({ custom_secrets: [{ name: 'OTHER', description: '' }] });
    });

    it('returns 400 for a name that exists, on create and on rename', async () => {
      await json('POST', '/api/secrets', { name: 'ONE', value: 'x' });
      await json('POST', '/api/secrets', { name: 'TWO', value: 'y' });
      const again = await json('POST', '/api/secrets', { name: 'ONE', value: 'z' });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ message: 'Secret ONE already exists' });
      const rename = await json('PUT', '/api/secrets/TWO', { name: 'ONE' });
      expect(rename.statusCode).toBe(400);
      expect(rename.json()).toEqual({ message: 'Secret ONE already exists' });
    });

    it('takes an edit that changes nothing', async () => {
      await json('POST', '/api/secrets', { name: 'SAME', value: 'x' });
      expect((await json('PUT', '/api/secrets/SAME', {})).statusCode).toBe(200);
      expect((await json('PUT', '/api/secrets/SAME', { name: 'SAME', description: null })).statusCode).toBe(200);
    });

    it('returns 404 for an unknown name', async () => {
      for (const method of ['PUT', 'DELETE'] as const) {
        const response = await json(method, '/api/secrets/NOPE', method === 'PUT' ? { description: 'x' } : undefined);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ error: 'Secret with ID NOPE not found' });
      }
    });

    it.each([
      ['a name with a dash', { name: 'MY-SECRET', value: 'x' }, ['body', 'name']],
      ['a name starting with a digit', { name: '1SECRET', value: 'x' }, ['body', 'name']],
      ['no value', { name: 'OK' }, ['body', 'value']],
      ['no name', { value: 'x' }, ['body', 'name']],
    ])('returns 422 for %s', async (_name, body, loc) => {
      const response = await json('POST', '/api/secrets', body);
      expect(response.statusCode).toBe(422);
      expect(response.json().detail[0].loc).toEqual(loc);
    });

    it('returns 422 for a rename to a bad name', async () => {
      await json('POST', '/api/secrets', { name: 'GOOD', value: 'x' });
      const response = await json('PUT', '/api/secrets/GOOD', { name: 'BAD NAME' });
      expect(response.statusCode).toBe(422);
      expect(response.json().detail[0].loc).toEqual(['body', 'name']);
    });
  });

  describe('secrets_store in POST /api/settings', () => {
    it('merges tokens and custom secrets, and GET still shows it empty', async () => {
      await addProviders({ github: { token: 'ghp_x' } });
      await json('POST', '/api/secrets', { name: 'EXISTING', value: 'old', description: 'd' });
      await t.postSettings({
        secrets_store: {
          provider_tokens: { gitlab: { token: 'glpat-y', host: 'gitlab.mycorp.com' } },
          custom_secrets: { EXISTING: { secret: 'new', description: null }, ADDED: { secret: 'v', description: 'added' } },
        },
      });
      const settings = (await t.getSettings()).json();
      expect(settings.provider_tokens_set).toEqual({ github: null, gitlab: 'gitlab.mycorp.com' });
      expect(settings.secrets_store).toEqual({ provider_tokens: {}, custom_secrets: {} });
      expect(await t.services.secrets.readCustomSecrets(sessionKeyCaller)).toEqual([
        { name: 'EXISTING', value: 'new' },
        { name: 'ADDED', value: 'v' },
      ]);
    });

    it('returns 422 under secrets_store, storing nothing', async () => {
      const bad = await t.postSettings({ language: 'de', secrets_store: { provider_tokens: { gitlab: { token: 'x', host: 'ftp://x' } } } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().detail[0].loc).toEqual(['body', 'secrets_store', 'provider_tokens', 'gitlab', 'host']);
      const missing = await t.postSettings({ language: 'de', secrets_store: { custom_secrets: { NEW_ONE: { description: 'no value' } } } });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().detail).toEqual([
        {
          type: 'value_error',
          loc: ['body', 'secrets_store', 'custom_secrets', 'NEW_ONE', 'secret'],
          msg: 'Value error, A new secret needs a value',
          input: null,
          ctx: { error: {} },
        },
      ]);
      expect((await t.getSettings()).statusCode).toBe(404);
    });
  });

  describe('secret values at rest and on the wire', () => {
    it('are not echoed by a 422, not even in the JSON error', async () => {
      const responses = [
        await addProviders({ github: { token: 'ghp_ECHO 1' } }),
        await addProviders({ github: 'ghp_ECHO_2' }),
        await json('POST', '/api/secrets', { name: 'BAD-NAME', value: 5 }),
        await t.postSettings({ llm_api_key: 42, mcp_config: { stdio_servers: [{ name: 'x', command: 'y', env: { A: 7 } }] } }),
        await t.request({
          method: 'POST',
          url: '/api/secrets',
          payload: '{"name": "X", "value": ghp_ECHO_3}',
          headers: { 'content-type': 'application/json' },
        }),
      ];
      for (const response of responses) expect(response.statusCode).toBe(422);
      const wire = responses.map((a) => a.body).join('\n');
      for (const echoed of ['ghp_ECHO', '"input":42', '"input":7', '"input":5']) expect(wire).not.toContain(echoed);
    });

    it('are in no response and not in the database in plain text', async () => {
      const values = ['ghp_PLAIN_token_1', 'glpat-PLAIN-token-2', 'PLAIN-secret-value-3', 'PLAIN-secret-value-4', 'PLAIN-secret-value-5'];
      const responses = [
        await addProviders({ github: { token: values[0] }, gitlab: { token: values[1], host: 'gitlab.mycorp.com' } }),
        await json('POST', '/api/secrets', { name: 'ONE', value: values[2], description: 'described-in-plain' }),
        await json('PUT', '/api/secrets/ONE', { value: values[3] }),
        await t.postSettings({ secrets_store: { custom_secrets: { TWO: { secret: values[4] } } } }),
        await t.getSettings(),
        await json('GET', '/api/secrets'),
      ];
      const wire = responses.map((a) => a.body).join('\n');
      const disk = await t.databaseText();
      expect(disk).toContain('described-in-plain'); // proves we read the right files
      for (const value of values) {
        expect(wire).not.toContain(value);
        expect(disk).not.toContain(value);
      }
    });
  });

  describe('Verify (POST /api/git-providers/{provider}/verify)', () => {
    const statuses = async () => (await json('GET', '/api/git-providers')).json().providers;
    const verify = (provider: string) => json('POST', `/api/git-providers/${provider}/verify`);

    it("returns the provider's verdict on the stored token and remembers an acceptance, never the token", async () => {
      const provider = await startFakeProvider(['good-token']);
      try {
        expect((await addProviders({ github: { token: 'good-token', host: provider.url } })).statusCode).toBe(200);
        expect(await statuses()).toEqual([{ provider: 'github', host: provider.url, checked_at: null }]); // saved, not verified

        const accepted = await verify('github');
        expect(accepted.statusCode).toBe(200);
        expect(accepted.json()).toEqual({
          provider: 'github',
          outcome: 'accepted',
          detail: 'GitHub accepted the token',
          checked_at: expect.any(String),
        });
        expect(provider.requests.at(-1)).toEqual({ path: '/api/v3/user', authorization: 'Bearer good-token' });
        expect(accepted.body).not.toContain('good-token');
        expect(await statuses()).toEqual([{ provider: 'github', host: provider.url, checked_at: accepted.json().checked_at }]);

        // Saved again as it was: still verified. A new token is not, until checked.
        expect((await addProviders({ github: { token: '', host: provider.url } })).statusCode).toBe(200);
        expect((await statuses())[0].checked_at).toBe(accepted.json().checked_at);
        expect((await addProviders({ github: { token: 'revoked-token', host: provider.url } })).statusCode).toBe(200);
        expect((await statuses())[0].checked_at).toBeNull();

        const refused = (await verify('github')).json();
        expect(refused).toEqual({
          provider: 'github',
          outcome: 'refused',
          detail: 'GitHub rejected the token (HTTP 401: Bad credentials)',
          checked_at: null,
        });
      } finally {
        await provider.close();
      }
    });

    it('keeps an acceptance when the provider cannot be reached, and says so', async () => {
      const provider = await startFakeProvider(['good-token']);
      expect((await addProviders({ gitlab: { token: 'good-token', host: provider.url } })).statusCode).toBe(200);
      const { checked_at } = (await verify('gitlab')).json();
      await provider.close();
      const unreachable = (await verify('gitlab')).json();
      expect(unreachable.outcome).toBe('unreachable');
      expect(unreachable.detail).toMatch(/^Could not reach GitLab at http:\/\/127\.0\.0\.1:\d+\/api\/v4\/user to check the token/);
      expect(unreachable.checked_at).toBe(checked_at);
    });

    it('says Enterprise SSO cannot be checked, and returns 404 for a provider not connected, 422 for an unknown one', async () => {
      expect((await addProviders({ enterprise_sso: { token: 'sso-token', host: 'sso.example.com' } })).statusCode).toBe(200);
      expect((await verify('enterprise_sso')).json()).toEqual({
        provider: 'enterprise_sso',
        outcome: 'uncheckable',
        detail: 'Enterprise SSO has no API to check a token with: it is used as given',
        checked_at: null,
      });
      const missing = await verify('github');
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ detail: 'GitHub is not connected' });
      const unknown = await verify('gitea');
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().detail[0].loc).toEqual(['path', 'provider']);
    });
  });

  describe('Enterprise SSO', () => {
    it('needs a host, on add-git-providers and in secrets_store alike', async () => {
      const added = await addProviders({ enterprise_sso: { token: 'sso-token' } });
      expect(added.statusCode).toBe(422);
      expect(added.json().detail).toEqual([
        expect.objectContaining({
          loc: ['body', 'provider_tokens', 'enterprise_sso', 'host'],
          msg: 'Value error, Enterprise SSO needs the host of your server',
        }),
      ]);
      const merged = await t.postSettings({ secrets_store: { provider_tokens: { enterprise_sso: { token: 'sso-token', host: ' ' } } } });
      expect(merged.statusCode).toBe(422);
      expect(merged.json().detail[0].loc).toEqual(['body', 'secrets_store', 'provider_tokens', 'enterprise_sso', 'host']);
      expect(await providers()).toEqual({});
    });
  });

  describe('VERIFY_GIT_TOKENS', () => {
    it('checks new tokens with the provider and refuses rejected ones at their token', async () => {
      const provider = await startFakeProvider(['good-token']);
      const v = await startTestApp({ database, verifyGitTokens: true });
      try {
        const post = (provider_tokens: unknown) =>
          v.request({
            method: 'POST',
            url: '/api/add-git-providers',
            payload: JSON.stringify({ provider_tokens }),
            headers: { 'content-type': 'application/json' },
          });

        expect((await post({ github: { token: 'good-token', host: provider.url } })).statusCode).toBe(200);
        expect(provider.requests.at(-1)).toEqual({ path: '/api/v3/user', authorization: 'Bearer good-token' });
        // Checked on save: verified at once.
        const [github] = (await v.request({ method: 'GET', url: '/api/git-providers' })).json().providers;
        expect(github.checked_at).toEqual(expect.any(String));

        const rejected = await post({
          github: { token: 'good-token', host: provider.url },
          gitlab: { token: 'bad-token', host: provider.url },
        });
        expect(rejected.statusCode).toBe(422);
        expect(rejected.json().detail).toEqual([
          {
            type: 'value_error',
            loc: ['body', 'provider_tokens', 'gitlab', 'token'],
            msg: 'Value error, GitLab rejected the token (HTTP 401: Bad credentials)',
            input: null,
            ctx: { error: {} },
          },
        ]);
        expect(provider.requests.at(-1)?.path).toBe('/api/v4/user');

        // A stored token moving to another host is checked there; an unreachable host says so.
        const moved = await post({ github: { token: '', host: 'http://127.0.0.1:9' } });
        expect(moved.statusCode).toBe(422);
        expect(moved.json().detail[0].loc).toEqual(['body', 'provider_tokens', 'github', 'host']); // the host was changed, not the token
        expect(moved.json().detail[0].msg).toMatch(/Could not reach GitHub at http:\/\/127\.0\.0\.1:9\/api\/v3\/user/);
        expect((await v.getSettings()).json().provider_tokens_set).toEqual({ github: provider.url }); // the move was not stored

        // Bitbucket and Azure DevOps use their own endpoints and auth.
        expect(
          (
            await post({
              bitbucket: { token: 'good-token', host: provider.url },
              azure_devops: { token: 'good-token', host: provider.url },
            })
          ).statusCode,
        ).toBe(200);
        expect(
          provider.requests
            .slice(-2)
            .map((r) => r.path)
            .sort(),
        ).toEqual(['/2.0/user', '/_apis/connectionData']);
      } finally {
        await v.close();
        await provider.close();
      }
    });
  });
});
