import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_SERVER_SCRIPT } from '../sandboxes/specs';

const KEY = 'agent-test-key-0123456789';
const LLM_KEY = 'sk-agent-server-test-llm-key';
let child: ChildProcess;
let base: string;
let workDir: string;
let output = '';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The built agent server (`npm run build:agent`), as a sandbox runs it. */
beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-server-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, [AGENT_SERVER_SCRIPT], {
    cwd: workDir,
    env: { PATH: process.env.PATH, PORT: String(port), SESSION_API_KEY: KEY },
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let tries = 0; tries < 100 && !output.includes('listening'); tries++) await new Promise((resolve) => setTimeout(resolve, 50));
});
afterAll(() => {
  child.kill('SIGKILL');
  fs.rmSync(workDir, { recursive: true, force: true });
});

const call = async (method: string, url: string, body?: unknown, key: string | null = KEY) => {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(key === null ? {} : { 'X-Session-API-Key': key }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
};

const start = (id: string) => ({
  conversation_id: id,
  agent: { llm: { model: 'openai/gpt-4o', base_url: null, api_key: LLM_KEY } },
  workspace: { working_dir: workDir },
});

describe('the agent server', () => {
  it('answers health checks openly and everything else only with its key', async () => {
    expect(await call('GET', '/alive', undefined, null)).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await call('GET', '/api/conversations', undefined, null)).status).toBe(401);
    expect((await call('GET', '/api/conversations', undefined, 'wrong')).status).toBe(401);
    expect((await call('GET', '/no/such/route')).status).toBe(404);
  });

  it('creates conversations and tells about them by id, in order, without the LLM key', async () => {
    const id = 'a'.repeat(32);
    const created = await call('POST', '/api/conversations', start('aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa'));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      id,
      execution_status: 'idle',
      agent: { llm: { model: 'openai/gpt-4o', base_url: null } },
      workspace: { working_dir: workDir },
      confirmation_policy: { kind: 'NeverConfirm' },
      max_iterations: 500,
    });
    const listed = await call('GET', `/api/conversations?ids=${id}&ids=${'b'.repeat(32)}`);
    expect(listed.body).toEqual([created.body, null]);
    expect((await call('GET', `/api/conversations/${id}`)).body).toEqual(created.body);
    expect(JSON.stringify([created, listed])).not.toContain(LLM_KEY);
    // Nothing it wrote holds the key either.
    const written = fs.readdirSync(workDir, { recursive: true }).map(String);
    for (const file of written) {
      const full = path.join(workDir, file);
      if (fs.statSync(full).isFile()) expect(fs.readFileSync(full, 'utf8')).not.toContain(LLM_KEY);
    }
    expect(output).not.toContain(LLM_KEY);
  });

  it('refuses a body that is not a start request, as FastAPI words it', async () => {
    const missing = await call('POST', '/api/conversations', { workspace: { working_dir: '/tmp' } });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ detail: [{ type: 'missing', loc: ['body', 'agent'] }] });
    expect((await call('POST', '/api/conversations')).body).toMatchObject({ detail: [{ type: 'missing', loc: ['body'] }] });
    expect((await call('GET', '/api/conversations?ids=not-an-id')).status).toBe(422);
  });
});
