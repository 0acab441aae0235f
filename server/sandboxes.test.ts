import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSandboxSpecs } from './sandboxes/specs';
import { Conflict, Invalid, NotFound } from './domain-errors';
import { markedProcesses, processGroup, readProcStat } from './processes/proc';
import { SANDBOX_MARKER } from './sandboxes/process-runtime';
import { startTestApp, type TestApp, type TestAppOptions } from './testing/test-app';

const apps: TestApp[] = [];
/** Every sandbox a test starts is deleted afterwards, processes and all. */
afterEach(async () => {
  for (const t of apps.splice(0)) {
    for (const sandbox of (await t.services.sandboxes.search({ limit: 100 })).items) await t.services.sandboxes.delete(sandbox.id);
    await t.close();
  }
});

async function app(options: TestAppOptions = {}) {
  const t = await startTestApp(options);
  apps.push(t);
  return t;
}

const call = (t: TestApp, method: 'GET' | 'POST' | 'DELETE', url: string) => t.request({ method, url });

async function start(t: TestApp, spec?: string) {
  const response = await call(t, 'POST', `/api/v1/sandboxes${spec ? `?sandbox_spec_id=${spec}` : ''}`);
  expect(response.statusCode, response.body).toBe(200);
  return response;
}

async function info(t: TestApp, id: string) {
  return (await call(t, 'GET', `/api/v1/sandboxes?id=${id}`)).json()[0];
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  for (const deadline = Date.now() + ms; ;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const running = (t: TestApp, id: string) =>
  until(
    () => info(t, id),
    (s) => s.status === 'RUNNING',
  );

/** The pid the registry holds for a sandbox (the leader of its process group). */
async function pidOf(t: TestApp, id: string): Promise<number> {
  const { pid } = await t.db.selectFrom('sandboxes').select('pid').where('id', '=', id).executeTakeFirstOrThrow();
  if (pid === null) throw new Error(`sandbox ${id} has no process`);
  return pid;
}

const shellSpec = (id: string, script: string) => ({
  id,
  command: ['sh', '-c', script],
  created_at: new Date().toISOString(),
  initial_env: {},
  working_dir: '',
});

describe('a sandbox, with real processes', () => {
  it('starts, runs its agent server, pauses, resumes and is deleted without a trace', async () => {
    const t = await app();
    const started = (await start(t)).json();
    expect(started).toMatchObject({
      sandbox_spec_id: 'agent-server',
      status: 'STARTING',
      session_api_key: null,
      exposed_urls: null,
      created_by_user_id: null,
      paused_sandbox_ids: [],
    });

    const run = await running(t, started.id);
    expect(run.status).toBe('RUNNING');
    const [agent] = run.exposed_urls;
    expect(agent).toMatchObject({ name: 'AGENT_SERVER', url: `http://127.0.0.1:${agent.port}` });
    expect(await (await fetch(`${agent.url}/alive`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${agent.url}/server_info`)).status).toBe(401);
    expect((await fetch(`${agent.url}/server_info`, { headers: { 'X-Session-API-Key': 'wrong' } })).status).toBe(401);
    const serverInfo = await fetch(`${agent.url}/server_info`, { headers: { 'X-Session-API-Key': run.session_api_key } });
    expect(serverInfo.status).toBe(200);
    expect(((await serverInfo.json()) as { working_dir: string }).working_dir).toBe(path.join(t.dataDir, 'sandboxes', started.id));

    const pid = await pidOf(t, started.id);
    expect((await call(t, 'POST', `/api/v1/sandboxes/${started.id}/pause`)).json()).toEqual({ success: true });
    expect(processGroup(pid).map((p) => p.state)).toEqual(processGroup(pid).map(() => 'T'));
    expect(processGroup(pid).length).toBeGreaterThan(0);
    expect(await info(t, started.id)).toMatchObject({ status: 'PAUSED', session_api_key: null, exposed_urls: null });
    // idempotent
    expect((await call(t, 'POST', `/api/v1/sandboxes/${started.id}/pause`)).statusCode).toBe(200);

    expect((await call(t, 'POST', `/api/v1/sandboxes/${started.id}/resume`)).json()).toEqual({ success: true, paused_sandbox_ids: [] });
    expect(readProcStat(pid)?.state).not.toBe('T');
    expect((await running(t, started.id)).status).toBe('RUNNING');
    expect((await call(t, 'POST', `/api/v1/sandboxes/${started.id}/resume`)).statusCode).toBe(200);

    expect((await call(t, 'DELETE', `/api/v1/sandboxes/${started.id}`)).json()).toEqual({ success: true });
    expect(processGroup(pid)).toEqual([]);
    expect(fs.existsSync(path.join(t.dataDir, 'sandboxes', started.id))).toBe(false);
    expect(await info(t, started.id)).toBeNull();
    for (const [method, url] of [
      ['POST', `/api/v1/sandboxes/${started.id}/pause`],
      ['POST', `/api/v1/sandboxes/${started.id}/resume`],
      ['DELETE', `/api/v1/sandboxes/${started.id}`],
      ['GET', `/api/v1/sandboxes/${started.id}/logs`],
    ] as const) {
      const response = await call(t, method, url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ detail: 'Not Found' });
    }
  });

  it('deletes a paused sandbox, and every process it started', async () => {
    const t = await app({ sandboxSpecs: [shellSpec('family', 'sleep 971 & sleep 972 & exec node -e "setInterval(() => {}, 1000)"')] });
    const { id } = (await start(t)).json();
    const pid = await pidOf(t, id);
    await until<number>(
      async () => processGroup(pid).length,
      (n) => n >= 3,
    );
    expect(processGroup(pid).length).toBe(3);
    await call(t, 'POST', `/api/v1/sandboxes/${id}/pause`);
    expect((await call(t, 'DELETE', `/api/v1/sandboxes?sandbox_id=${id}`)).statusCode).toBe(200); // the pinned OpenHands' form
    expect(processGroup(pid)).toEqual([]);
  });

  it('reports a command that cannot start, or exits at once, as ERROR with the reason and leaves nothing behind', async () => {
    const t = await app({
      sandboxSpecs: [
        shellSpec('broken', 'echo "config file missing" >&2; sleep 970 & exit 3'),
        { ...shellSpec('absent', ''), command: ['/no/such/agent-server'] },
      ],
    });
    const broken = (await start(t, 'broken')).json();
    expect(broken.status).toBe('ERROR');
    expect(broken.status_detail).toBe('The process exited with code 3: config file missing');
    expect(processGroup(await pidOf(t, broken.id))).toEqual([]); // its background sleep too
    expect((await call(t, 'GET', `/api/v1/sandboxes/${broken.id}/logs`)).json().lines).toEqual([
      'config file missing',
      '[agent-console] process exited with code 3',
    ]);

    const absent = (await start(t, 'absent')).json();
    expect(absent).toMatchObject({
      status: 'ERROR',
      status_detail: 'Could not start: spawn /no/such/agent-server ENOENT (command not found)',
    });
    expect((await call(t, 'GET', `/api/v1/sandboxes/${absent.id}/logs`)).json().lines.at(-1)).toMatch(
      /could not start: spawn \/no\/such\/agent-server ENOENT/,
    );
  });

  it('is ERROR when the agent server never answers', async () => {
    const t = await app({ sandboxSpecs: [shellSpec('mute', 'exec sleep 969')], sandboxLimits: { startTimeoutMs: 1500 } });
    const { id } = (await start(t)).json();
    expect((await info(t, id)).status).toBe('STARTING');
    const failed = await until(
      () => info(t, id),
      (s) => s.status === 'ERROR',
      5000,
    );
    expect(failed).toMatchObject({ status: 'ERROR', status_detail: 'The agent server has not answered on /alive for 2 s' });
  });

  it('passes the spec environment, the session key and the port, and none of the server’s own secrets', async () => {
    process.env.SECRETS_KEY = 'must-not-leak';
    try {
      const t = await app({ sandboxSpecs: [{ ...shellSpec('env', 'env; exec sleep 968'), initial_env: { GREETING: 'hello' } }] });
      const { id } = (await start(t)).json();
      const lines = await until(
        async () => (await call(t, 'GET', `/api/v1/sandboxes/${id}/logs?tail=100`)).json().lines as string[],
        (l) => l.some((line) => line.startsWith('PORT=')),
      );
      expect(lines).toContain('GREETING=hello');
      expect(lines.some((line) => line.startsWith('SESSION_API_KEY='))).toBe(true);
      expect(lines.some((line) => line.startsWith('SECRETS_KEY'))).toBe(false);
    } finally {
      delete process.env.SECRETS_KEY;
    }
  });
});

describe('limits', () => {
  it('pauses the oldest running sandbox to stay under MAX_RUNNING_SANDBOXES, and says which', async () => {
    const t = await app({ sandboxLimits: { maxRunning: 2 } });
    const first = (await start(t)).json().id;
    const second = (await start(t)).json().id;
    await running(t, first);
    const third = await start(t);
    expect(third.json().paused_sandbox_ids).toEqual([first]);
    expect(third.headers['x-paused-sandboxes']).toBe(first);
    expect((await info(t, first)).status).toBe('PAUSED');
    expect((await info(t, second)).status).not.toBe('PAUSED');

    // resuming the first pauses the oldest of the others
    const resumed = await call(t, 'POST', `/api/v1/sandboxes/${first}/resume`);
    expect(resumed.json()).toEqual({ success: true, paused_sandbox_ids: [second] });
    expect((await info(t, second)).status).toBe('PAUSED');
  });

  it('refuses more than MAX_SANDBOXES with a 409 that says so', async () => {
    const t = await app({ sandboxLimits: { maxSandboxes: 2 } });
    await start(t);
    await start(t);
    const third = await call(t, 'POST', '/api/v1/sandboxes');
    expect(third.statusCode).toBe(409);
    expect(third.json().detail).toMatch(/At most 2 sandboxes may exist at once/);
  });
});

describe('a server restart', () => {
  it('finds its sandboxes again with the same status at once, and never signals a process whose pid was reused', async () => {
    const first = await app();
    const a = (await start(first)).json().id;
    const b = (await start(first)).json().id;
    await running(first, a);
    await running(first, b);
    await call(first, 'POST', `/api/v1/sandboxes/${b}/pause`);
    const pidA = await pidOf(first, a);
    apps.splice(apps.indexOf(first), 1);
    await first.close({ keepData: true }); // as on SIGTERM: the sandboxes keep running
    expect(readProcStat(pidA)?.state).toBeDefined();

    const second = await app({ dataDir: first.dataDir });
    // Right away, without waiting: the first health checks ran before the server answered.
    expect((await info(second, a)).status).toBe('RUNNING');
    expect((await info(second, b)).status).toBe('PAUSED');
    expect((await call(second, 'POST', `/api/v1/sandboxes/${b}/resume`)).statusCode).toBe(200);
    expect((await running(second, b)).status).toBe('RUNNING');

    // A registry row whose pid now belongs to another process (this one) is MISSING, and that
    // process is never signalled; deleting the sandbox still ends its own processes, found by marker.
    await second.db.updateTable('sandboxes').set({ pid: process.pid, process_start: '1' }).where('id', '=', a).execute();
    expect((await info(second, a)).status).toBe('MISSING');
    expect((await call(second, 'DELETE', `/api/v1/sandboxes/${a}`)).statusCode).toBe(200);
    expect(readProcStat(process.pid)).toBeDefined(); // we are still alive
    expect(processGroup(pidA)).toEqual([]);
  });

  it('finds a sandbox whose pid was never recorded (the server stopped in between) by its marker', async () => {
    const first = await app();
    const { id } = (await start(first)).json();
    await running(first, id);
    const pid = await pidOf(first, id);
    await first.db.updateTable('sandboxes').set({ pid: null, process_start: null }).where('id', '=', id).execute();
    apps.splice(apps.indexOf(first), 1);
    await first.close({ keepData: true });

    const second = await app({ dataDir: first.dataDir });
    expect(await pidOf(second, id)).toBe(pid);
    expect((await running(second, id)).status).toBe('RUNNING');
  });
});

describe('processes that end on their own', () => {
  it('takes the rest of the group along when the leader exits, and shows why', async () => {
    const t = await app({ sandboxSpecs: [shellSpec('leaves-children', 'sleep 964 & sleep 1; echo "giving up" >&2; exit 4')] });
    const { id } = (await start(t)).json();
    const pid = await pidOf(t, id);
    expect(processGroup(pid).length).toBeGreaterThanOrEqual(2); // the shell and its background sleep (and the foreground one)
    const failed = await until(
      () => info(t, id),
      (s) => s.status === 'ERROR',
      5000,
    );
    expect(failed.status_detail).toBe('The process exited with code 4: giving up');
    expect(processGroup(pid)).toEqual([]); // the background sleep went with it
  });

  it('logs the end with the sandbox id, without what the sandbox wrote', async () => {
    let log = '';
    const t = await app({
      sandboxSpecs: [shellSpec('failing', 'echo "secret-looking output" >&2; exit 5')],
      logStream: { write: (line: string) => void (log += line) },
    });
    const { id } = (await start(t)).json();
    await until(
      () => info(t, id),
      (s) => s.status === 'ERROR',
      5000,
    );
    const lines = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ sandbox: id, component: 'sandboxes', msg: 'sandbox process ended with an error' }),
    );
    expect(log).not.toContain('secret-looking output');
  });

  it('counts a live sandbox toward the running cap whatever its health', async () => {
    const t = await app({
      sandboxSpecs: [...loadSandboxSpecs(undefined), shellSpec('mute', 'exec sleep 963')],
      sandboxLimits: { maxRunning: 1, startTimeoutMs: 500 },
    });
    const mute = (await start(t, 'mute')).json().id;
    expect(
      (
        await until(
          () => info(t, mute),
          (s) => s.status === 'ERROR',
          5000,
        )
      ).status,
    ).toBe('ERROR');
    const next = (await start(t)).json();
    expect(next.paused_sandbox_ids).toEqual([mute]);
  });
});

describe('running a command inside a sandbox (exec)', () => {
  /** Its processes outside its main group: what commands run in it left behind. */
  const leftovers = (id: string, mainPid: number) => markedProcesses(SANDBOX_MARKER, id).filter((p) => p.pgrp !== mainPid);
  const idleSpec = { ...shellSpec('idle', 'exec sleep 955'), initial_env: { GREETING: 'hello' }, working_dir: 'work' };

  it('runs in the working directory with the sandbox environment, and answers exit code and output', async () => {
    const t = await app({ sandboxSpecs: [idleSpec] });
    const { id } = (await start(t)).json();
    const script = 'pwd; echo "$GREETING $EXTRA $HOME"; echo "to stderr" >&2; exit 3';
    const result = await t.services.sandboxes.exec(id, ['sh', '-c', script], { env: { EXTRA: 'there' }, timeoutMs: 5000 });
    const home = path.join(t.dataDir, 'sandboxes', id);
    expect(result.exitCode).toBe(3);
    expect(result.timedOut).toBe(false);
    expect(result.output).toContain(`${path.join(home, 'work')}\nhello there ${home}\n`);
    expect(result.output).toContain('to stderr\n');

    const elsewhere = await t.services.sandboxes.exec(id, ['pwd'], { cwd: '.', timeoutMs: 5000 });
    expect(elsewhere).toEqual({ exitCode: 0, output: `${home}\n`, timedOut: false });
  });

  it('ends the command and everything it started at the timeout', async () => {
    const t = await app({ sandboxSpecs: [idleSpec] });
    const { id } = (await start(t)).json();
    const result = await t.services.sandboxes.exec(id, ['sh', '-c', 'echo started; sleep 954 & sleep 953'], { timeoutMs: 300 });
    expect(result).toMatchObject({ exitCode: null, timedOut: true, output: 'started\n' });
    const pid = await pidOf(t, id);
    expect(
      await until(
        async () => leftovers(id, pid),
        (left) => left.length === 0,
        3000,
      ),
    ).toEqual([]);
    expect(processGroup(pid).length).toBe(1); // the sandbox itself runs on
  });

  it('leaves background processes to the sandbox: paused with it, ended by its delete', async () => {
    const t = await app({ sandboxSpecs: [idleSpec] });
    const { id } = (await start(t)).json();
    const pid = await pidOf(t, id);
    const result = await t.services.sandboxes.exec(id, ['sh', '-c', 'sleep 952 > /dev/null 2>&1 &'], { timeoutMs: 5000 });
    expect(result.exitCode).toBe(0);
    expect(leftovers(id, pid)).toHaveLength(1);

    await t.services.sandboxes.pause(id);
    expect(leftovers(id, pid).map((p) => p.state)).toEqual(['T']);
    await t.services.sandboxes.resume(id);
    expect(leftovers(id, pid).map((p) => p.state)).not.toEqual(['T']);

    await t.services.sandboxes.delete(id);
    expect(markedProcesses(SANDBOX_MARKER, id)).toEqual([]);
  });

  it('refuses a paused or unknown sandbox and a directory outside the sandbox, saying what to do', async () => {
    const t = await app({ sandboxSpecs: [idleSpec] });
    const { id } = (await start(t)).json();
    const exec = (sandbox: string, cwd?: string) => t.services.sandboxes.exec(sandbox, ['true'], { cwd, timeoutMs: 5000 });
    await expect(exec(id, '../..')).rejects.toEqual(new Invalid(['cwd'], '../.. is outside the sandbox'));
    await expect(exec('nope')).rejects.toBeInstanceOf(NotFound);
    await t.services.sandboxes.pause(id);
    await expect(exec(id)).rejects.toEqual(new Conflict(`Sandbox ${id} is paused; resume it first`));
  });
});

describe('lists and lookups', () => {
  it('searches newest first with filters and opaque page ids', async () => {
    const t = await app({ sandboxSpecs: [...loadSandboxSpecs(undefined), shellSpec('idle', 'exec sleep 967')] });
    const ids = [];
    for (const spec of ['agent-server', 'idle', 'idle']) ids.push((await start(t, spec)).json().id);
    await call(t, 'POST', `/api/v1/sandboxes/${ids[1]}/pause`);

    const all = (await call(t, 'GET', '/api/v1/sandboxes/search')).json();
    expect(all.items.map((s: { id: string }) => s.id)).toEqual([...ids].reverse());
    expect(all.next_page_id).toBeNull();

    const page1 = (await call(t, 'GET', '/api/v1/sandboxes/search?limit=2')).json();
    expect(page1.items).toHaveLength(2);
    expect(page1.next_page_id).toEqual(expect.any(String));
    const page2 = (await call(t, 'GET', `/api/v1/sandboxes/search?limit=2&page_id=${page1.next_page_id}`)).json();
    expect(page2.items.map((s: { id: string }) => s.id)).toEqual([ids[0]]);

    expect((await call(t, 'GET', '/api/v1/sandboxes/search?status__eq=PAUSED')).json().items.map((s: { id: string }) => s.id)).toEqual([
      ids[1],
    ]);
    expect(
      (await call(t, 'GET', '/api/v1/sandboxes/search?sandbox_spec_id__eq=agent-server')).json().items.map((s: { id: string }) => s.id),
    ).toEqual([ids[0]]);
  });

  it.each([
    ['/api/v1/sandboxes/search?limit=0', 422, ['query', 'limit']],
    ['/api/v1/sandboxes/search?limit=101', 422, ['query', 'limit']],
    ['/api/v1/sandboxes/search?limit=ten', 422, ['query', 'limit']],
    ['/api/v1/sandboxes/search?page_id=not-ours', 422, ['query', 'page_id']],
    ['/api/v1/sandboxes/search?status__eq=STOPPED', 422, ['query', 'status__eq']],
    ['/api/v1/sandboxes', 422, ['query', 'id']],
    ['/api/v1/sandbox-specs/search?limit=500', 422, ['query', 'limit']],
  ])('GET %s → %i at %j', async (url, status, loc) => {
    const t = await app();
    const response = await call(t, 'GET', url);
    expect(response.statusCode).toBe(status);
    expect(response.json().detail[0].loc).toEqual(loc);
  });

  it('tells how many run and exist, against the caps', async () => {
    const t = await app({ sandboxSpecs: [shellSpec('idle', 'exec sleep 968')], sandboxLimits: { maxRunning: 3, maxSandboxes: 7 } });
    expect((await call(t, 'GET', '/api/v1/sandboxes/capacity')).json()).toEqual({
      running: 0,
      max_running: 3,
      sandboxes: 0,
      max_sandboxes: 7,
      runtime: 'process',
    });
    const first = (await start(t)).json().id;
    await start(t);
    await call(t, 'POST', `/api/v1/sandboxes/${first}/pause`);
    expect((await call(t, 'GET', '/api/v1/sandboxes/capacity')).json()).toEqual({
      running: 1,
      max_running: 3,
      sandboxes: 2,
      max_sandboxes: 7,
      runtime: 'process',
    });
  });

  it('answers batches in request order with null for unknown ids, and refuses more than 100', async () => {
    const t = await app();
    const { id } = (await start(t)).json();
    const batch = (await call(t, 'GET', `/api/v1/sandboxes?id=nope&id=${id}`)).json();
    expect(batch[0]).toBeNull();
    expect(batch[1].id).toBe(id);
    const many = Array.from({ length: 101 }, (_, i) => `id=x${i}`).join('&');
    const tooMany = await call(t, 'GET', `/api/v1/sandboxes?${many}`);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toEqual({ detail: 'Cannot request more than 100 sandboxes at once, got 101' });
  });

  it('answers 404 with a readable detail for an unknown spec, and for unknown sandbox ids', async () => {
    const t = await app();
    const response = await call(t, 'POST', '/api/v1/sandboxes?sandbox_spec_id=gpu-large');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Sandbox spec gpu-large not found' });
    expect((await call(t, 'DELETE', '/api/v1/sandboxes?sandbox_id=nope')).statusCode).toBe(404);
  });

  it('lists the specs, the agent server first, and finds them by id', async () => {
    const t = await app({ sandboxSpecs: [...loadSandboxSpecs(undefined), shellSpec('idle', 'exec sleep 966')] });
    const page = (await call(t, 'GET', '/api/v1/sandbox-specs/search')).json();
    expect(page.items.map((s: { id: string }) => s.id)).toEqual(['agent-server', 'idle']);
    expect(page.items[0].command.at(-1)).toMatch(/build\/agent-server\/main\.js$/);
    const batch = (await call(t, 'GET', '/api/v1/sandbox-specs?id=idle&id=nope')).json();
    expect(batch.map((s: { id: string } | null) => s?.id ?? null)).toEqual(['idle', null]);
  });

  it("runs no spec in an image: Settings' sandbox_runtime_container_image is the Docker runtime's", async () => {
    const t = await app();
    expect((await t.postSettings({ sandbox_runtime_container_image: 'my/agent:2' })).statusCode).toBe(200);
    const [spec] = (await call(t, 'GET', '/api/v1/sandbox-specs/search')).json().items;
    expect(spec.image).toBeUndefined();
    expect(spec.command.at(-1)).toMatch(/build\/agent-server\/main\.js$/);
  });

  it('tails the log', async () => {
    const t = await app({ sandboxSpecs: [shellSpec('chatty', 'for i in 1 2 3 4 5; do echo line $i; done; exec sleep 965')] });
    const { id } = (await start(t)).json();
    const tail = await until(
      async () => (await call(t, 'GET', `/api/v1/sandboxes/${id}/logs?tail=2`)).json(),
      (l) => l.lines.at(-1) === 'line 5',
    );
    expect(tail).toEqual({ sandbox_id: id, lines: ['line 4', 'line 5'] });
  });
});
