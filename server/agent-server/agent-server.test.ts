import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MODEL } from '../../src/contract/events';
import { AGENT_SERVER_SCRIPT } from '../sandboxes/specs';
import { type AgentServerProcess, startAgentServer } from '../testing/agent-server-process';
import { STDIO_MCP_SERVER } from '../testing/stdio-mcp-server';

const LLM_KEY = 'sk-agent-server-test-llm-key';
let server: AgentServerProcess;
let workDir: string;

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-server-'));
  server = await startAgentServer(workDir);
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

const call = (method: string, url: string, body?: unknown, key?: string | null) => server.call(method, url, body, key);

const start = (id: string) => ({
  conversation_id: id,
  agent: { llm: { model: 'openai/gpt-4o', base_url: null, api_key: LLM_KEY } },
  workspace: { working_dir: workDir },
});

describe('the agent server', () => {
  it('responds to health checks openly and to everything else only with its key', async () => {
    expect(await call('GET', '/alive', undefined, null)).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await call('GET', '/server_info', undefined, null)).status).toBe(401);
    // Started without an owner (as by an older app server): it says none.
    expect((await call('GET', '/server_info')).body).toMatchObject({ owner: null });
    expect((await call('GET', '/api/conversations', undefined, null)).status).toBe(401);
    expect((await call('GET', '/api/conversations', undefined, 'wrong')).status).toBe(401);
    expect((await call('GET', '/no/such/route')).status).toBe(404);
  });

  it('creates conversations and returns them by id, in order, without the LLM key', async () => {
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
    expect(server.output()).not.toContain(LLM_KEY);
  });

  it('refuses a body that is not a start request, as FastAPI words it', async () => {
    const missing = await call('POST', '/api/conversations', { workspace: { working_dir: '/tmp' } });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ detail: [{ type: 'missing', loc: ['body', 'agent'] }] });
    expect((await call('POST', '/api/conversations')).body).toMatchObject({ detail: [{ type: 'missing', loc: ['body'] }] });
    expect((await call('GET', '/api/conversations?ids=not-an-id')).status).toBe(422);
  });

  it("is one directory that runs without node_modules: openai, ws, zod and the MCP SDK's client are bundled in", async () => {
    const alone = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-server-alone-'));
    fs.cpSync(path.dirname(AGENT_SERVER_SCRIPT), path.join(alone, 'agent-server'), { recursive: true });
    const copy = path.join(alone, 'agent-server', path.basename(AGENT_SERVER_SCRIPT));
    const lonely = await startAgentServer(alone, 'alone-key-0123456789', copy);
    try {
      const created = await lonely.call('POST', '/api/conversations', {
        agent: {
          llm: { model: DEMO_MODEL },
          mcp_config: {
            mcpServers: {
              tools: STDIO_MCP_SERVER,
            },
          },
        },
        workspace: { working_dir: path.join(alone, 'workspace') },
        initial_message: { content: [{ type: 'text', text: 'hi' }] },
      });
      expect(created.status).toBe(200);
      const id = (created.body as { id: string }).id;
      const socket = lonely.socket(`/sockets/events/${id}?session_api_key=alone-key-0123456789`);
      const first = await new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));
      socket.close();
      expect(first).toMatchObject({ kind: 'ConversationStateUpdateEvent', key: 'full_state' });
      await lonely.status(id, 'finished');
      const [prompt] = await lonely.events(id);
      expect(JSON.stringify(prompt)).toContain('"mcp_server":"tools"');
    } finally {
      await lonely.stop();
      fs.rmSync(alone, { recursive: true, force: true });
    }
  });
});
