import { sessionKeyCaller } from '../authz/caller';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAllSandboxes, startSandbox, statusBecomes } from '../testing/sandbox-helpers';
import { startTestApp, type TestApp } from '../testing/test-app';

/**
 * With a known value in every secret the server stores, none of them appears in
 * any GET response, the log at `debug`, the OpenAPI document, the database files or the sandbox
 * directories. MCP env values come back to the console by design (SECURITY.md): they are looked
 * for at rest only. A sandbox's own session key is returned by design and is no value set here.
 */

const mark = (name: string) => `hygiene-${name}-5e1f0c2a9b7d`;
const SECRETS = {
  llm: mark('llm-api-key'),
  search: mark('search-api-key'),
  sandbox: mark('sandbox-api-key'),
  github: mark('github-token'),
  gitlab: mark('gitlab-token'),
  bitbucket: mark('bitbucket-token'),
  azure: mark('azure-token'),
  sso: mark('sso-token'),
  customViaSettings: mark('custom-via-settings'),
  customCreated: mark('custom-created'),
  customReplaced: mark('custom-replaced'),
  customNew: mark('custom-new-value'),
  mcpSse: mark('mcp-sse-key'),
  mcpShttp: mark('mcp-shttp-key'),
  mcpTested: mark('mcp-tested-key'),
  refused: mark('refused-token'),
};
const AT_REST_ONLY = { mcpEnv: mark('mcp-env-value') };

let t: TestApp;
let log = '';
const responses: { what: string; body: string }[] = [];

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  const response = await t.request({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
  responses.push({ what: `${method} ${url} → ${response.statusCode}`, body: response.body });
  return response;
}

beforeAll(async () => {
  t = await startTestApp({ logStream: { write: (line: string) => void (log += line) } });
  const stored = await call('POST', '/api/settings', {
    llm_api_key: SECRETS.llm,
    search_api_key: SECRETS.search,
    sandbox_api_key: SECRETS.sandbox,
    mcp_config: {
      sse_servers: [{ url: 'http://127.0.0.1:1/sse', api_key: SECRETS.mcpSse }],
      shttp_servers: [{ url: 'http://127.0.0.1:1/mcp', api_key: SECRETS.mcpShttp }],
      stdio_servers: [{ name: 'tool', command: 'no-such-mcp-command', env: { TOKEN: AT_REST_ONLY.mcpEnv } }],
    },
    secrets_store: {
      provider_tokens: { github: { token: SECRETS.github } },
      custom_secrets: { VIA_SETTINGS: { secret: SECRETS.customViaSettings, description: 'set with the settings' } },
    },
  });
  expect(stored.statusCode, stored.body).toBe(200);
  const providers = await call('POST', '/api/add-git-providers', {
    provider_tokens: {
      github: { token: '' },
      gitlab: { token: SECRETS.gitlab },
      bitbucket: { token: SECRETS.bitbucket },
      azure_devops: { token: SECRETS.azure },
      enterprise_sso: { token: SECRETS.sso, host: 'sso.example.com' },
    },
  });
  expect(providers.statusCode, providers.body).toBe(200);
  expect((await call('POST', '/api/secrets', { name: 'CREATED', value: SECRETS.customCreated })).statusCode).toBe(201);
  expect((await call('POST', '/api/secrets', { name: 'REPLACED', value: SECRETS.customReplaced })).statusCode).toBe(201);
  expect((await call('PUT', '/api/secrets/REPLACED', { name: 'RENAMED', value: SECRETS.customNew })).statusCode).toBe(200);
  // Refused values must not be echoed either.
  expect(
    (await call('POST', '/api/add-git-providers', { provider_tokens: { github: { token: `${SECRETS.refused} x` } } })).statusCode,
  ).toBe(422);
  expect((await call('POST', '/api/settings', { llm_api_key: [SECRETS.refused] })).statusCode).toBe(422);
  // Connection tests with the stored key and with one sent along; both fail (nothing listens there).
  for (const api_key of [null, SECRETS.mcpTested]) {
    expect((await call('POST', '/api/mcp/test?timeout=2', { kind: 'sse', url: 'http://127.0.0.1:1/sse', api_key })).statusCode).toBe(200);
  }
  const sandbox = await startSandbox(t, 'agent-server');
  await statusBecomes(t, sandbox.id, 'RUNNING');
});

afterAll(async () => {
  await deleteAllSandboxes(t);
  await t.close();
});

/** Every GET the OpenAPI document lists, with path parameters filled in with things that exist. */
async function everyGet(): Promise<void> {
  const doc = (await call('GET', '/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
  const sandboxId = (await t.services.sandboxes.search(sessionKeyCaller, { limit: 1 })).items[0]!.id;
  for (const [route, operations] of Object.entries(doc.paths)) {
    if (!('get' in operations)) continue;
    const url = route.replace('{sandbox_id}', sandboxId).replace('{name}', 'RENAMED');
    const query =
      route === '/api/v1/sandboxes' || route === '/api/v1/sandbox-specs'
        ? `?id=${route.includes('specs') ? 'agent-server' : sandboxId}`
        : '';
    await call('GET', `${url}${query}`);
  }
  await call('GET', '/');
}

/** Every file under `dir`, as text (binary is fine: values are ASCII). */
function filesUnder(dir: string): { file: string; text: string }[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return entry.isFile() ? [{ file, text: fs.readFileSync(file).toString('latin1') }] : [];
  });
}

const occurrences = (places: { where: string; text: string }[], values: Record<string, string>) =>
  places.flatMap(({ where, text }) =>
    Object.entries(values)
      .filter(([, value]) => text.includes(value))
      .map(([name]) => `${name} in ${where}`),
  );

describe('secret hygiene', () => {
  it('no secret in any GET response, the OpenAPI document or the responses to refused requests', async () => {
    await everyGet();
    expect(responses.filter((a) => a.what.startsWith('GET')).length).toBeGreaterThan(8);
    expect(
      occurrences(
        responses.map((a) => ({ where: a.what, text: a.body })),
        SECRETS,
      ),
    ).toEqual([]);
  });

  it('no secret in the log at debug', () => {
    expect(log).toContain('"level":20'); // debug lines were written
    expect(occurrences([{ where: 'the log', text: log }], { ...SECRETS, ...AT_REST_ONLY })).toEqual([]);
  });

  it('no secret, MCP env values included, in the database files or the sandbox directories and logs', async () => {
    const places = [
      { where: 'the database', text: await t.databaseText() },
      ...[path.join(t.dataDir, 'sandboxes'), path.join(t.dataDir, 'sandbox-logs')].flatMap((dir) =>
        filesUnder(dir).map(({ file, text }) => ({ where: file, text })),
      ),
    ];
    expect(places.length).toBeGreaterThan(1);
    expect(occurrences(places, { ...SECRETS, ...AT_REST_ONLY })).toEqual([]);
  });

  it('finds a value that is there (the scan can fail)', () => {
    const settings = responses.find((a) => a.what.startsWith('GET /api/settings'))!;
    expect(settings.body).toContain(AT_REST_ONLY.mcpEnv); // returned by design, and found by the same scan
  });
});
