import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NUL_PROBLEM } from '../../../src/contract/rules';
import { inEnglish } from '../../i18n/english';
import { sessionKeyCaller } from '../../authz/caller';
import { startTestApp, type TestApp } from '../../testing/test-app';

/*
 * Values that become part of a sandbox's processes (custom secrets, provider tokens, an MCP stdio
 * server's command, arguments and environment) are refused at save when no process could be
 * given them: a stored NUL made every later start of its user fail.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const send = (method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, payload?: object) => t.request({ method, url, payload });

/** What the user has stored that these requests could change. */
const stored = async () => ({
  secrets: (await send('GET', '/api/secrets')).json(),
  providers: (await send('GET', '/api/git-providers')).json(),
  mcp: (await t.getSettings()).json().mcp_config ?? null,
});

const stdio = (fields: object) => ({ mcp_config: { stdio_servers: [{ name: 'tool', command: 'npx', args: [], env: {}, ...fields }] } });

describe('a NUL character is refused at its field, and nothing is stored', () => {
  it.each([
    ['a new custom secret', 'POST', '/api/secrets', { name: 'WITH_NUL', value: 'a\0b' }, ['body', 'value']],
    ['a custom secret changed', 'PUT', '/api/secrets/KEPT', { value: 'a\0b' }, ['body', 'value']],
    [
      'a custom secret in the settings',
      'POST',
      '/api/settings',
      { secrets_store: { custom_secrets: { WITH_NUL: { secret: 'a\0b' } } } },
      ['body', 'secrets_store', 'custom_secrets', 'WITH_NUL', 'secret'],
    ],
    [
      'a provider token',
      'POST',
      '/api/add-git-providers',
      { provider_tokens: { github: { token: 'ghp_a\0b' } } },
      ['body', 'provider_tokens', 'github', 'token'],
    ],
    [
      "an MCP server's environment value",
      'POST',
      '/api/settings',
      stdio({ env: { TOKEN: 'a\0b' } }),
      ['body', 'mcp_config', 'stdio_servers', 0, 'env', 'TOKEN'],
    ],
    [
      "an MCP server's argument",
      'POST',
      '/api/settings',
      stdio({ args: ['--flag', 'a\0b'] }),
      ['body', 'mcp_config', 'stdio_servers', 0, 'args', 1],
    ],
    [
      "an MCP server's command",
      'POST',
      '/api/settings',
      stdio({ command: 'np\0x' }),
      ['body', 'mcp_config', 'stdio_servers', 0, 'command'],
    ],
    ['the git user name', 'POST', '/api/settings', { git_user_name: 'Ada\0' }, ['body', 'git_user_name']],
  ])('%s', async (_what, method, url, payload, loc) => {
    expect((await send('POST', '/api/secrets', { name: 'KEPT', value: 'kept value' })).statusCode).toBe(201);
    const before = await stored();
    const response = await send(method as 'POST' | 'PUT', url, payload);
    expect(response.statusCode).toBe(422);
    const detail = response.json().detail as { loc: unknown[]; msg: string; input: unknown }[];
    expect(detail).toContainEqual(expect.objectContaining({ loc, msg: expect.stringContaining(inEnglish(NUL_PROBLEM)) }));
    // A secret's value is never sent back, even a refused one.
    expect(JSON.stringify(detail)).not.toContain('a\\u0000b');
    expect(await stored()).toEqual(before);
    expect(await t.services.secrets.readCustomSecrets(sessionKeyCaller)).toEqual([{ name: 'KEPT', value: 'kept value' }]);
    await send('DELETE', '/api/secrets/KEPT');
  });
});
