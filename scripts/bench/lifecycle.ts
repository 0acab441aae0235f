import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type Docker from 'dockerode';
import type { Row } from './results';
import type { BenchServers } from './servers';
import { median, timings } from './stats';

const RUNS = 20;

async function json<T>(response: Promise<{ status: number; body: string }>): Promise<T> {
  const { status, body } = await response;
  if (status !== 200) throw new Error(`${status} ${body.slice(0, 300)}`);
  return JSON.parse(body) as T;
}

/** Starts a sandbox and asks for it every 2 ms until it is RUNNING: its id. */
async function startUntilRunning(servers: BenchServers): Promise<string> {
  const { id } = await json<{ id: string }>(servers.request('POST', '/api/v1/sandboxes'));
  for (;;) {
    const [sandbox] = await json<({ status: string } | null)[]>(servers.get(`/api/v1/sandboxes?id=${id}`));
    if (sandbox?.status === 'RUNNING') return id;
    if (sandbox?.status === 'ERROR' || sandbox?.status === 'MISSING') throw new Error(`sandbox ${id} is ${sandbox.status}`);
    await sleep(2);
  }
}

/** Conversations started for the start → first event row: each makes a sandbox of its own. */
const CONVERSATION_RUNS = 10;

/** Asks `read` every 2 ms until it returns something. */
async function until<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    await sleep(2);
  }
}

/**
 * `POST /api/v1/app-conversations` → the first event of its agent stored here (searchable), asked
 * every 2 ms; then its sandbox is deleted. Milliseconds.
 */
async function startUntilFirstEvent(servers: BenchServers): Promise<number> {
  const began = performance.now();
  const message = { role: 'user', content: [{ type: 'text', text: 'Show me around' }] };
  const { id: taskId } = await json<{ id: string }>(servers.request('POST', '/api/v1/app-conversations', { initial_message: message }));
  const conversationId = await until(async () => {
    const [task] = await json<{ status: string; detail: string | null; app_conversation_id: string | null }[]>(
      servers.get(`/api/v1/app-conversations/start-tasks?ids=${taskId}`),
    );
    if (task?.status === 'ERROR') throw new Error(`a conversation did not start: ${task.detail}`);
    return task?.status === 'READY' ? task.app_conversation_id! : undefined;
  });
  await until(async () =>
    (await json<number>(servers.get(`/api/v1/events/count?conversation_id__eq=${conversationId}`))) > 0 ? true : undefined,
  );
  const elapsed = performance.now() - began;
  const [conversation] = await json<{ sandbox_id: string }[]>(servers.get(`/api/v1/app-conversations?ids=${conversationId}`));
  await json(servers.request('DELETE', `/api/v1/sandboxes/${conversation!.sandbox_id}`));
  return elapsed;
}

interface Lifecycle {
  start: number[];
  pause: number[];
  resume: number[];
}

async function lifecycle(servers: BenchServers, runs: number): Promise<Lifecycle> {
  const result: Lifecycle = { start: [], pause: [], resume: [] };
  for (let i = 0; i < runs; i++) {
    let id = '';
    result.start.push(...(await timings(1, async () => (id = await startUntilRunning(servers)))));
    result.pause.push(...(await timings(1, () => json(servers.request('POST', `/api/v1/sandboxes/${id}/pause`)))));
    result.resume.push(...(await timings(1, () => json(servers.request('POST', `/api/v1/sandboxes/${id}/resume`)))));
    await json(servers.request('DELETE', `/api/v1/sandboxes/${id}`));
  }
  return result;
}

const bareSpawn = () =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve());
  });

/** Process runtime: start → RUNNING beside a bare `node -e ""`; pause and resume. */
export async function processLifecycle(servers: BenchServers): Promise<Row[]> {
  await bareSpawn();
  const bare = await timings(RUNS, bareSpawn);
  const run = await lifecycle(servers, RUNS);
  const start = median(run.start);
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  await json(servers.request('POST', '/api/settings', { llm_model: 'demo/scripted' }));
  const conversations: number[] = [];
  for (let i = 0; i < CONVERSATION_RUNS; i++) conversations.push(await startUntilFirstEvent(servers));
  const firstEvent = median(conversations);
  return [
    {
      section: '4 lifecycle',
      measure: 'process: start → RUNNING',
      value: ms(start),
      baseline: `${ms(median(bare))} (node -e "")`,
      ratio: start / median(bare),
      goal: '≤ 3',
      met: start / median(bare) <= 3,
      data: { start: run.start, bare },
    },
    {
      section: '4 lifecycle',
      measure: 'conversation: POST → its first agent event stored',
      value: ms(firstEvent),
      baseline: `${ms(start)} (its sandbox's start → RUNNING)`,
      ratio: firstEvent / start,
      goal: '≤ +1.5 s',
      met: firstEvent - start <= 1500,
      data: { conversations, start: run.start },
    },
    ...(['pause', 'resume'] as const).map((step) => ({
      section: '4 lifecycle',
      measure: `process: ${step}`,
      value: ms(median(run[step])),
      baseline: '',
      ratio: null,
      goal: '≤ 20 ms',
      met: median(run[step]) <= 20,
      data: { [step]: run[step] },
    })),
  ];
}

/** Docker runtime: start → RUNNING beside a bare container of the same image running `node -e ""`. */
export async function dockerLifecycle(servers: BenchServers, engine: Docker, image: string): Promise<Row[]> {
  const bareContainer = async () => {
    const container = await engine.createContainer({ Image: image, Cmd: ['node', '-e', ''], Labels: { 'agent-console.bench': '1' } });
    try {
      await container.start();
      await container.wait();
    } finally {
      await container.remove({ force: true });
    }
  };
  await bareContainer();
  const bare = await timings(RUNS, bareContainer);
  const run = await lifecycle(servers, RUNS);
  const start = median(run.start);
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  return [
    {
      section: '4 lifecycle',
      measure: 'docker: start → RUNNING',
      value: ms(start),
      baseline: `${ms(median(bare))} (bare container, node -e "")`,
      ratio: start / median(bare),
      goal: '≤ 1.5',
      met: start / median(bare) <= 1.5,
      data: { start: run.start, bare },
    },
    ...(['pause', 'resume'] as const).map((step) => ({
      section: '4 lifecycle',
      measure: `docker: ${step}`,
      value: ms(median(run[step])),
      baseline: '',
      ratio: null,
      goal: '',
      met: null,
      data: { [step]: run[step] },
    })),
  ];
}
