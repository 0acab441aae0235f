import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { expect, vi } from 'vitest';
import WebSocket from 'ws';
import type { AgentEvent, EventPage } from '../../src/contract/events';
import { AGENT_SERVER_SCRIPT } from '../sandboxes/specs';

/*
 * The built agent server (`npm run build:agent`) as a sandbox runs it: its own process, a
 * working directory, a session key. For tests of the agent server and of what talks to it.
 */

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface CallResponse {
  status: number;
  body: unknown;
}

export interface AgentServerProcess {
  base: string;
  key: string;
  child: ChildProcess;
  /** Everything it printed (stdout and stderr) so far. */
  output(): string;
  call(method: string, url: string, body?: unknown, key?: string | null): Promise<CallResponse>;
  /** Every stored event of a conversation, in order (pages through events/search). */
  events(id: string): Promise<AgentEvent[]>;
  /** Waits until `check` holds for the conversation's events (polling events/search); returns them then. */
  waitForEvents(id: string, check: (events: AgentEvent[]) => boolean, what: string, timeoutMs?: number): Promise<AgentEvent[]>;
  /** Waits for a conversation's execution status. */
  status(id: string, wanted: string, timeoutMs?: number): Promise<void>;
  socket(path: string, headers?: Record<string, string>): WebSocket;
  stop(): Promise<void>;
}

/**
 * `script`: the built agent server by default; a copy elsewhere shows it needs no node_modules.
 * `env`: what its sandbox would add to its environment (OH_ALLOW_CORS_ORIGINS).
 */
export async function startAgentServer(
  cwd: string,
  key = 'agent-test-key-0123456789',
  script = AGENT_SERVER_SCRIPT,
  env: Record<string, string> = {},
): Promise<AgentServerProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let printed = '';
  const child = spawn(process.execPath, [script], {
    cwd,
    env: { PATH: process.env.PATH, PORT: String(port), SESSION_API_KEY: key, ...env },
  });
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  await vi.waitFor(() => expect(printed, 'The agent server did not start').toContain('listening'), { timeout: 10_000 });

  const call = async (method: string, url: string, body?: unknown, given: string | null = key): Promise<CallResponse> => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(given === null ? {} : { 'X-Session-API-Key': given }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  const events = async (id: string): Promise<AgentEvent[]> => {
    const all: AgentEvent[] = [];
    let page: string | null = null;
    do {
      const response = await call('GET', `/api/conversations/${id}/events/search?limit=100${page ? `&page_id=${page}` : ''}`);
      if (response.status !== 200) throw new Error(`events/search responded with ${response.status}: ${JSON.stringify(response.body)}`);
      const body = response.body as EventPage;
      all.push(...body.items);
      page = body.next_page_id;
    } while (page);
    return all;
  };
  return {
    base,
    key,
    child,
    output: () => printed,
    call,
    events,
    waitForEvents: (id, check, what, timeoutMs = 15_000) =>
      vi.waitFor(
        async () => {
          const found = await events(id);
          expect(check(found), `waiting for ${what}`).toBe(true);
          return found;
        },
        { timeout: timeoutMs },
      ),
    status: async (id, wanted, timeoutMs = 15_000) => {
      await expect
        .poll(async () => ((await call('GET', `/api/conversations/${id}`)).body as { execution_status: string }).execution_status, {
          timeout: timeoutMs,
        })
        .toBe(wanted);
    },
    socket: (path, headers = {}) => new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers }),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
