import { sessionKeyCaller } from '../../authz/caller';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/test-app';

/** MCP stdio env values are sealed at rest, and still come back to the console. */

let t: TestApp;
afterEach(async () => {
  await t.close();
});

const ENV_VALUE = 'env-value-7f3a9c1e-not-in-plain-text';
const server = { name: 'github', command: 'npx', args: ['-y', 'server-github'], env: { GITHUB_TOKEN: ENV_VALUE, EMPTY: '' } };

const storedDocument = async () => (await t.db.selectFrom('user_settings').select('document').executeTakeFirstOrThrow()).document;

describe('MCP stdio env values', () => {
  it('are stored sealed and returned opened', async () => {
    t = await startTestApp();
    expect((await t.postSettings({ mcp_config: { stdio_servers: [server] } })).statusCode).toBe(200);
    expect(await t.databaseText()).not.toContain(ENV_VALUE);
    expect(await storedDocument()).not.toContain(ENV_VALUE);
    expect((await t.getSettings()).json().mcp_config.stdio_servers).toEqual([server]);
    expect((await t.services.settings.readWithSecrets(sessionKeyCaller))!.mcp_config!.stdio_servers[0]!.env).toEqual(server.env);
  });

  it('stay sealed when another field is saved', async () => {
    t = await startTestApp();
    await t.postSettings({ mcp_config: { stdio_servers: [server] } });
    await t.postSettings({ llm_model: 'gpt-x' });
    expect(await storedDocument()).not.toContain(ENV_VALUE);
    expect((await t.getSettings()).json().mcp_config.stdio_servers[0].env).toEqual(server.env);
  });

  it('stored in plain text by an earlier version still read, and are sealed at the next start', async () => {
    t = await startTestApp();
    const legacy = { mcp_config: { sse_servers: [], shttp_servers: [], stdio_servers: [server] }, llm_model: 'kept' };
    await t.db
      .insertInto('user_settings')
      .values({ user_id: 'default', document: JSON.stringify(legacy), updated_at: 'x' })
      .execute();
    expect((await t.getSettings()).json().mcp_config.stdio_servers).toEqual([server]);

    expect(await t.services.settings.sealPlainMcpEnv(sessionKeyCaller)).toBe(true);
    expect(await storedDocument()).not.toContain(ENV_VALUE);
    expect(JSON.parse(await storedDocument()).llm_model).toBe('kept');
    expect((await t.getSettings()).json().mcp_config.stdio_servers).toEqual([server]);
    expect(await t.services.settings.sealPlainMcpEnv(sessionKeyCaller)).toBe(false);
  });

  it('are not sealed over a stored mcp_config that does not read (it stays as it is)', async () => {
    t = await startTestApp();
    const broken = { mcp_config: { stdio_servers: [{ ...server, args: 'not a list' }] } };
    await t.db
      .insertInto('user_settings')
      .values({ user_id: 'default', document: JSON.stringify(broken), updated_at: 'x' })
      .execute();
    expect(await t.services.settings.sealPlainMcpEnv(sessionKeyCaller)).toBe(false);
    expect(JSON.parse(await storedDocument())).toEqual(broken);
  });
});
