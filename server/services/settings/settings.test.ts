import { sessionKeyCaller } from '../../authz/caller';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databasesUnderTest } from '../../testing/databases';
import { addMember, type TestMember } from '../../testing/team-members';
import { startTestApp, type TestApp } from '../../testing/test-app';

describe.each(databasesUnderTest())('on %s', (database) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp({ database });
  });
  afterEach(async () => {
    await t.close();
  });

  async function settings() {
    const response = await t.getSettings();
    expect(response.statusCode).toBe(200);
    return response.json();
  }

  async function store(body: unknown) {
    const response = await t.postSettings(body);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: 'Settings stored' });
  }

  describe('GET /api/settings', () => {
    it('returns 404 like OpenHands before anything was stored', async () => {
      const response = await t.getSettings();
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Settings not found' });
    });

    it('with absent=null, returns null before anything was stored and the settings after; another value is refused', async () => {
      const before = await t.request({ method: 'GET', url: '/api/settings?absent=null' });
      expect(before.statusCode).toBe(200);
      expect(before.headers['content-type']).toMatch(/^application\/json/);
      expect(before.body).toBe('null');
      await store({ language: 'fr' });
      const after = await t.request({ method: 'GET', url: '/api/settings?absent=null' });
      expect(after.statusCode).toBe(200);
      expect(after.json()).toEqual(await settings());
      const refused = await t.request({ method: 'GET', url: '/api/settings?absent=404' });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().detail[0].loc).toEqual(['query', 'absent']);
    });

    it('returns every field, defaults included, with secrets hidden behind *_set flags', async () => {
      await store({ llm_model: 'anthropic/claude-sonnet-4-5', llm_api_key: 'sk-live-123', search_api_key: 'tvly-456' });
      const body = await settings();
      expect(body).toMatchObject({
        llm_model: 'anthropic/claude-sonnet-4-5',
        llm_api_key: null,
        search_api_key: null,
        sandbox_api_key: null,
        llm_api_key_set: true,
        search_api_key_set: true,
        sandbox_api_key_set: false,
        provider_tokens_set: {},
        enable_default_condenser: true,
        enable_sound_notifications: false,
        enable_proactive_conversation_starters: true,
        enable_solvability_analysis: true,
        condenser_max_size: null,
        v1_enabled: null,
        secrets_store: { provider_tokens: {}, custom_secrets: {} },
      });
      expect(Object.keys(body)).toEqual(
        expect.arrayContaining([
          'language',
          'agent',
          'max_iterations',
          'email',
          'email_verified',
          'git_user_name',
          'git_user_email',
          'user_consents_to_analytics',
          'sandbox_base_container_image',
          'sandbox_runtime_container_image',
          'remote_runtime_resource_factor',
          'max_budget_per_task',
          'security_analyzer',
          'confirmation_mode',
          'mcp_config',
        ]),
      );
    });

    it('never carries a secret value, MCP API keys included', async () => {
      await store({
        llm_api_key: 'sk-secret-llm',
        search_api_key: 'secret-search',
        sandbox_api_key: 'secret-sandbox',
        mcp_config: {
          sse_servers: [{ url: 'https://mcp.example.com/sse', api_key: 'secret-sse-key' }],
          shttp_servers: [{ url: 'https://mcp.example.com/mcp', api_key: 'secret-shttp-key' }],
        },
      });
      const raw = (await t.getSettings()).body;
      for (const secret of ['sk-secret-llm', 'secret-search', 'secret-sandbox', 'secret-sse-key', 'secret-shttp-key']) {
        expect(raw).not.toContain(secret);
      }
      const body = JSON.parse(raw);
      expect(body.sandbox_api_key_set).toBe(true);
      expect(body.mcp_config.sse_servers).toEqual([{ url: 'https://mcp.example.com/sse', api_key: null, api_key_set: true }]);
      expect(body.mcp_config.shttp_servers).toEqual([
        { url: 'https://mcp.example.com/mcp', api_key: null, api_key_set: true, timeout: 60 },
      ]);
    });
  });

  describe('POST /api/settings merge rules', () => {
    it('keeps fields absent from the body and replaces present ones, even with null', async () => {
      await store({ language: 'fr', agent: 'CodeActAgent', max_iterations: 50, git_user_name: 'ada' });
      await store({ language: null, max_iterations: 80 });
      expect(await settings()).toMatchObject({ language: null, agent: 'CodeActAgent', max_iterations: 80, git_user_name: 'ada' });
    });

    it('keeps a secret that is null or absent, replaces it when given, clears it with ""', async () => {
      const stored = async () => (await t.services.settings.readWithSecrets(sessionKeyCaller))!;
      await store({ llm_api_key: 'first', search_api_key: 'search' });
      await store({ llm_api_key: null });
      expect(await stored()).toMatchObject({ llm_api_key: 'first', search_api_key: 'search' });
      await store({ language: 'de' });
      expect(await stored()).toMatchObject({ llm_api_key: 'first' });
      await store({ llm_api_key: 'second' });
      expect(await stored()).toMatchObject({ llm_api_key: 'second', search_api_key: 'search' });
      await store({ llm_api_key: '' });
      expect(await stored()).toMatchObject({ llm_api_key: null, search_api_key: 'search' });
      expect(await settings()).toMatchObject({ llm_api_key_set: false, search_api_key_set: true });
    });

    it('ignores read-only fields a client echoes back', async () => {
      await store({ llm_api_key: 'keep-me' });
      const echoed = await settings();
      await store({ ...echoed, llm_api_key_set: false, search_api_key_set: true, provider_tokens_set: { github: null }, language: 'es' });
      expect(await settings()).toMatchObject({ llm_api_key_set: true, search_api_key_set: false, provider_tokens_set: {}, language: 'es' });
    });

    it('echoing a GET back changes nothing', async () => {
      await store({
        llm_model: 'openai/gpt-5',
        llm_api_key: 'k',
        confirmation_mode: true,
        condenser_max_size: 120,
        mcp_config: {
          sse_servers: [{ url: 'https://a.example/sse', api_key: 'sse-key' }],
          stdio_servers: [{ name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], env: { A: '1' } }],
        },
      });
      const before = await settings();
      await store(before);
      expect(await settings()).toEqual(before);
    });

    it('keeps an MCP key when the entry comes back with api_key null and the same URL', async () => {
      const url = 'https://mcp.example.com/sse';
      await store({ mcp_config: { sse_servers: [{ url, api_key: 'k1' }] } });
      await store({ mcp_config: { sse_servers: [{ url, api_key: null }] } });
      expect((await settings()).mcp_config.sse_servers[0].api_key_set).toBe(true);
      // absent api_key behaves like null
      await store({ mcp_config: { sse_servers: [{ url }] } });
      expect((await settings()).mcp_config.sse_servers[0].api_key_set).toBe(true);
      await store({ mcp_config: { sse_servers: [{ url, api_key: '' }] } });
      expect((await settings()).mcp_config.sse_servers[0].api_key_set).toBe(false);
    });

    it('keeps and replaces streamable-HTTP keys the same way', async () => {
      const url = 'https://mcp.example.com/mcp';
      await store({ mcp_config: { shttp_servers: [{ url, api_key: 'k1', timeout: null }] } });
      await store({ mcp_config: { shttp_servers: [{ url, api_key: null, timeout: 90 }] } });
      expect((await t.services.settings.readWithSecrets(sessionKeyCaller))!.mcp_config!.shttp_servers).toEqual([
        { url, api_key: 'k1', timeout: 90 },
      ]);
      await store({ mcp_config: { shttp_servers: [{ url, api_key: 'k2', timeout: null }] } });
      expect((await t.services.settings.readWithSecrets(sessionKeyCaller))!.mcp_config!.shttp_servers).toEqual([
        { url, api_key: 'k2', timeout: null },
      ]);
    });

    it('accepts ws and wss MCP URLs', async () => {
      await store({
        mcp_config: { sse_servers: [{ url: 'ws://localhost:8080/sse' }], shttp_servers: [{ url: 'wss://mcp.example.com/mcp' }] },
      });
      expect((await settings()).mcp_config.sse_servers[0].url).toBe('ws://localhost:8080/sse');
    });

    it('drops an MCP key when the URL or the kind changes', async () => {
      await store({
        mcp_config: {
          sse_servers: [{ url: 'https://a.example/sse', api_key: 'k1' }],
          shttp_servers: [{ url: 'https://b.example/mcp', api_key: 'k2' }],
        },
      });
      await store({
        mcp_config: {
          sse_servers: [{ url: 'https://a.example/other', api_key: null }],
          shttp_servers: [{ url: 'https://a.example/sse', api_key: null }],
        },
      });
      const { mcp_config } = await settings();
      expect(mcp_config.sse_servers[0].api_key_set).toBe(false);
      expect(mcp_config.shttp_servers[0].api_key_set).toBe(false);
    });

    it('stores trimmed MCP names, commands and URLs and the default SHTTP timeout', async () => {
      await store({
        mcp_config: { stdio_servers: [{ name: ' fetch ', command: ' uvx ' }], shttp_servers: [{ url: ' https://x.example/mcp ' }] },
      });
      expect((await settings()).mcp_config).toEqual({
        sse_servers: [],
        stdio_servers: [{ name: 'fetch', command: 'uvx', args: [], env: {} }],
        shttp_servers: [{ url: 'https://x.example/mcp', api_key: null, api_key_set: false, timeout: 60 }],
      });
    });

    it('accepts mcp_config null and shows it as null', async () => {
      await store({ mcp_config: { stdio_servers: [{ name: 'a', command: 'b' }] } });
      await store({ mcp_config: null });
      expect((await settings()).mcp_config).toBeNull();
    });

    it('validates secrets_store and always shows it empty (its contents go to the secrets)', async () => {
      await store({
        secrets_store: {
          provider_tokens: { github: { token: 'ghp_x', host: null } },
          custom_secrets: { API: { secret: 's', description: 'd' } },
        },
      });
      const body = await settings();
      expect(body.secrets_store).toEqual({ provider_tokens: {}, custom_secrets: {} });
      expect(body.provider_tokens_set).toEqual({ github: null });
      const bad = await t.postSettings({ secrets_store: { provider_tokens: 'nope' } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().detail[0].loc).toEqual(['body', 'secrets_store', 'provider_tokens']);
    });

    it('keeps what a rejected save contained out of the store', async () => {
      await store({ language: 'en' });
      expect((await t.postSettings({ language: 'fr', max_iterations: 'many' })).statusCode).toBe(422);
      expect(await settings()).toMatchObject({ language: 'en', max_iterations: null });
    });
  });

  describe("the account's email", () => {
    const asMember = (member: TestMember, method: 'GET' | 'POST', body?: unknown) =>
      t.request({ method, url: '/api/settings', headers: { 'x-session-api-key': member.key }, ...(body ? { payload: body } : {}) });

    it("is the signed-in user's address, verified once an identity provider vouched for it at a sign-in; a POST changes neither", async () => {
      const member = await addMember(t, 'Ada@Example.com', 'member');
      // Nothing stored yet, but the account has an address: the settings are there, with it.
      expect((await asMember(member, 'GET')).json()).toMatchObject({ email: 'ada@example.com', email_verified: false, llm_model: null });

      const stored = await asMember(member, 'POST', { email: 'mallory@example.com', email_verified: true, language: 'de' });
      expect(stored.statusCode, stored.body).toBe(200);
      expect((await asMember(member, 'GET')).json()).toMatchObject({ email: 'ada@example.com', email_verified: false, language: 'de' });

      await t.services.team.userForIdentity({ email: 'ada@example.com', verified: true, name: 'Ada' }, false);
      expect((await asMember(member, 'GET')).json()).toMatchObject({ email: 'ada@example.com', email_verified: true, language: 'de' });
    });

    it('is null for the owner who signs in with the key (no address), whatever a POST says, and makes no settings of its own', async () => {
      expect((await t.getSettings()).statusCode).toBe(404);
      await store({ email: 'owner@example.com', email_verified: true });
      expect(await settings()).toMatchObject({ email: null, email_verified: null });
    });

    it('a signed-up member is verified from the first sign-in', async () => {
      const userId = await t.services.team.userForIdentity({ email: 'new@example.com', verified: true, name: null }, true);
      const member = { userId, role: 'member', authType: 'api_key' } as const;
      expect(await t.services.settings.readIfStored(member)).toMatchObject({ email: 'new@example.com', email_verified: true });
    });
  });

  describe('stored settings that no longer fit the contract', () => {
    /** The stored document itself, as the database has it. */
    const storedDocument = async (app: TestApp) =>
      JSON.parse((await app.db.selectFrom('user_settings').select('document').executeTakeFirstOrThrow()).document) as Record<
        string,
        unknown
      >;

    async function withLog(body: (app: TestApp, lines: () => Record<string, unknown>[]) => Promise<void>) {
      let text = '';
      const app = await startTestApp({ database, logStream: { write: (chunk: string) => void (text += chunk) } });
      try {
        await body(app, () =>
          text
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as Record<string, unknown>),
        );
      } finally {
        await app.close();
      }
    }

    it('serves the fields that read, the default for one that does not, and logs where (never its value)', async () => {
      await withLog(async (app, lines) => {
        expect((await app.postSettings({ llm_model: 'gpt-4o', max_iterations: 50, llm_api_key: 'sk-kept' })).statusCode).toBe(200);
        const stored = await storedDocument(app);
        await app.db
          .updateTable('user_settings')
          .set({ document: JSON.stringify({ ...stored, max_iterations: 'very-odd-value', confirmation_mode: 'yes' }) })
          .execute();

        const response = await app.getSettings();
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({
          llm_model: 'gpt-4o',
          max_iterations: null,
          confirmation_mode: null,
          llm_api_key_set: true,
        });

        const warnings = lines().filter((line) => line.msg === 'a stored setting does not read; serving its default');
        expect(warnings.map((line) => line.field)).toEqual(['max_iterations', 'confirmation_mode']);
        expect(JSON.stringify(lines())).not.toContain('very-odd-value');
        // Reading rewrote nothing.
        expect((await storedDocument(app)).max_iterations).toBe('very-odd-value');
      });
    });

    it('a save of another field keeps every other stored field as it was, the unreadable one included', async () => {
      await withLog(async (app) => {
        await app.postSettings({
          llm_model: 'gpt-4o',
          llm_api_key: 'sk-kept',
          mcp_config: { sse_servers: [{ url: 'https://mcp.example/sse', api_key: 'k' }] },
        });
        const stored = await storedDocument(app);
        await app.db
          .updateTable('user_settings')
          .set({ document: JSON.stringify({ ...stored, max_iterations: 'very-odd-value' }) })
          .execute();

        expect((await app.postSettings({ language: 'fr' })).statusCode).toBe(200);
        const after = await storedDocument(app);
        expect(after).toEqual({ ...stored, max_iterations: 'very-odd-value', language: 'fr' });
        expect((await app.getSettings()).json()).toMatchObject({
          language: 'fr',
          llm_model: 'gpt-4o',
          llm_api_key_set: true,
          mcp_config: { sse_servers: [{ url: 'https://mcp.example/sse', api_key_set: true }] },
        });

        // Setting that field again replaces the unreadable value.
        await app.postSettings({ max_iterations: 30 });
        expect((await storedDocument(app)).max_iterations).toBe(30);
      });
    });

    it('reads a document that is not JSON as the defaults, and a save starts it afresh', async () => {
      await withLog(async (app, lines) => {
        await app.postSettings({ llm_model: 'gpt-4o' });
        await app.db.updateTable('user_settings').set({ document: '{not json' }).execute();
        expect((await app.getSettings()).json()).toMatchObject({ llm_model: null, enable_default_condenser: true });
        expect(lines().some((line) => String(line.msg).includes('not a JSON object'))).toBe(true);
        await app.postSettings({ language: 'de' });
        expect((await app.getSettings()).json()).toMatchObject({ language: 'de', llm_model: null });
      });
    });
  });

  describe('secrets at rest', () => {
    it('refuses to start with another secrets key, and starts again with the right one', async () => {
      await store({ llm_api_key: 'sealed-with-the-first-key' });
      await expect(
        startTestApp({ database, dataDir: t.dataDir, databaseUrl: t.databaseUrl, secretsKey: 'a-different-key' }),
      ).rejects.toThrow(/not the one the stored secrets were sealed with/);
      // On PostgreSQL, a second instance needs a data dir of its own while the first runs (its id is the data dir's).
      const sqlite = database === 'sqlite';
      const again = await startTestApp({ database, dataDir: sqlite ? t.dataDir : undefined, databaseUrl: t.databaseUrl });
      try {
        expect((await again.getSettings()).json()).toMatchObject({ llm_api_key_set: true });
      } finally {
        await again.close({ keepData: sqlite });
      }
    });

    it('the database files hold no secret in plain text', async () => {
      const secrets = ['sk-PLAIN-llm-key-1', 'PLAIN-search-key-2', 'PLAIN-sandbox-key-3', 'PLAIN-sse-key-4', 'PLAIN-shttp-key-5'];
      await store({
        llm_api_key: secrets[0],
        search_api_key: secrets[1],
        sandbox_api_key: secrets[2],
        llm_model: 'visible/model-name',
        mcp_config: {
          sse_servers: [{ url: 'https://s.example/sse', api_key: secrets[3] }],
          shttp_servers: [{ url: 'https://h.example/mcp', api_key: secrets[4] }],
        },
      });
      const bytes = await t.databaseText();
      expect(bytes).toContain('visible/model-name'); // proves we are reading the right files
      for (const secret of secrets) expect(bytes).not.toContain(secret);
    });
  });
});
