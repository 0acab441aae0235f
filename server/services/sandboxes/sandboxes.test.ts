import { sessionKeyCaller } from '../../authz/caller';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSandboxSpecs } from '../../sandboxes/specs';
import { NotFound } from '../../domain-errors';
import { processGroup, readProcStat } from '../../processes/proc';
import { AGENT_SERVER_CONTAINER_PORT } from '../../sandboxes/docker/sandbox-image';
import { databasesUnderTest } from '../../testing/databases';
import { runtimesUnderTest } from '../../testing/docker-engine';
import { logLines, sandboxInfo, shellSpec, statusBecomes } from '../../testing/sandbox-helpers';
import { homeOf, processesOf, tracesOf } from '../../testing/sandbox-processes';
import { startTestApp, type TestApp, type TestAppOptions } from '../../testing/test-app';
import { publishedUrl } from '../../testing/published-url';
import { canSwitchUsers } from '../../processes/process-user';

/*
 * What every runtime must do alike runs on each (docker when an engine responds); what is about
 * the registry alone, or about process groups and pids, runs once, on processes.
 */

const runtimes = runtimesUnderTest('server/services/sandboxes/sandboxes.test.ts');

const apps: TestApp[] = [];
/** Every app a test starts is closed afterwards, its sandboxes (processes or containers) and all. */
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
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

const running = (t: TestApp, id: string) => statusBecomes(t, id, 'RUNNING');

/** What the registry holds to find a sandbox's processes again: a pid and its start, or a container id. */
const handleOf = (t: TestApp, id: string) =>
  t.db.selectFrom('sandboxes').select(['pid', 'process_start']).where('id', '=', id).executeTakeFirstOrThrow();

/** The pid the registry holds for a process sandbox (the leader of its process group). */
async function pidOf(t: TestApp, id: string): Promise<number> {
  const { pid } = await handleOf(t, id);
  if (pid === null) throw new Error(`sandbox ${id} has no process`);
  return pid;
}

/** The command lines of its processes, once every one of `expected` is among them. */
const argsOnceThere = async (t: TestApp, id: string, expected: string[]) =>
  vi.waitFor(
    async () => {
      const args = (await processesOf(t, id)).map((p) => p.args);
      for (const word of expected)
        expect(
          args.some((line) => line.includes(word)),
          `${word} in ${args.join(', ')}`,
        ).toBe(true);
      return args;
    },
    { timeout: 10_000 },
  );

describe.each(runtimes)('a sandbox on the %s runtime', (runtime) => {
  const appOn = (options: TestAppOptions = {}) => app({ sandboxRuntime: runtime, ...options });

  it('starts, runs its agent server, pauses, resumes and is deleted without a trace', async () => {
    const t = await appOn();
    const started = (await start(t)).json();
    expect(started).toMatchObject({ sandbox_spec_id: 'agent-server', created_by_user_id: 'default', paused_sandbox_ids: [] });
    // Its agent server is asked from the start: one that responds before the start's response is sent is RUNNING in it already.
    if (started.status === 'RUNNING') expect(started.session_api_key).toEqual(expect.any(String));
    else expect(started).toMatchObject({ status: 'STARTING', session_api_key: null, exposed_urls: null });

    const run = await running(t, started.id);
    expect(run.status).toBe('RUNNING');
    const agent = run.exposed_urls![0]!;
    expect(agent).toMatchObject({ name: 'AGENT_SERVER', url: expect.stringMatching(publishedUrl) });
    // the port the agent server listens on: the host's for a process, the container's (published on another) for docker
    expect(agent.port).toBe(runtime === 'docker' ? AGENT_SERVER_CONTAINER_PORT : Number(new URL(agent.url).port));
    expect(await (await fetch(`${agent.url}/alive`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${agent.url}/server_info`)).status).toBe(401);
    expect((await fetch(`${agent.url}/server_info`, { headers: { 'X-Session-API-Key': 'wrong' } })).status).toBe(401);
    const serverInfo = await fetch(`${agent.url}/server_info`, { headers: { 'X-Session-API-Key': run.session_api_key! } });
    expect(serverInfo.status).toBe(200);
    expect(((await serverInfo.json()) as { working_dir: string }).working_dir).toBe(homeOf(t, started.id));

    expect((await call(t, 'POST', `/api/v1/sandboxes/${started.id}/pause`)).json()).toEqual({ success: true });
    const paused = await processesOf(t, started.id);
    expect(paused.length).toBeGreaterThan(0);
    expect(paused.filter((p) => !p.stopped)).toEqual([]);
    expect(await sandboxInfo(t, started.id)).toMatchObject({ status: 'PAUSED', session_api_key: null, exposed_urls: null });
    // idempotent
    expect((await call(t, 'POST', `/api/v1/sandboxes/${started.id}/pause`)).statusCode).toBe(200);

    expect((await call(t, 'POST', `/api/v1/sandboxes/${started.id}/resume`)).json()).toEqual({ success: true, paused_sandbox_ids: [] });
    expect((await processesOf(t, started.id)).filter((p) => p.stopped)).toEqual([]);
    expect((await running(t, started.id)).status).toBe('RUNNING');
    expect((await call(t, 'POST', `/api/v1/sandboxes/${started.id}/resume`)).statusCode).toBe(200);

    expect(await tracesOf(t, started.id)).not.toEqual([]);
    expect((await call(t, 'DELETE', `/api/v1/sandboxes/${started.id}`)).json()).toEqual({ success: true });
    expect(await processesOf(t, started.id)).toEqual([]);
    expect(await tracesOf(t, started.id)).toEqual([]);
    expect(await sandboxInfo(t, started.id)).toBeNull();
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
    const t = await appOn({ sandboxSpecs: [shellSpec('family', 'sleep 971 & sleep 972 & exec node -e "setInterval(() => {}, 1000)"')] });
    const { id } = (await start(t)).json();
    const family = ['sleep 971', 'sleep 972', 'node -e'];
    expect(await argsOnceThere(t, id, family)).toEqual(expect.arrayContaining(family.map((word) => expect.stringContaining(word))));
    await call(t, 'POST', `/api/v1/sandboxes/${id}/pause`);
    expect((await call(t, 'DELETE', `/api/v1/sandboxes?sandbox_id=${id}`)).statusCode).toBe(200); // the pinned OpenHands' form
    expect(await processesOf(t, id)).toEqual([]);
  });

  it('reports a command that cannot start, or exits at once, as ERROR with the reason, and leaves nothing of it running', async () => {
    const t = await appOn({
      sandboxSpecs: [
        shellSpec('broken', 'echo "config file missing" >&2; sleep 970 & exit 3'),
        { ...shellSpec('absent', ''), command: ['/no/such/agent-server'] },
      ],
    });
    const broken = (await start(t, 'broken')).json();
    // processes: in this very response; a container's end is noticed a moment later
    const failed = runtime === 'process' ? broken : await statusBecomes(t, broken.id, 'ERROR');
    expect(failed.status).toBe('ERROR');
    expect(failed.status_detail).toBe('The process exited with code 3: config file missing');
    expect(await processesOf(t, broken.id)).toEqual([]); // its background sleep too
    const exitLine = { process: ['[agent-console] process exited with code 3'], docker: [] }[runtime];
    expect(await logLines(t, broken.id)).toEqual(['config file missing', ...exitLine]);

    const absent = (await start(t, 'absent')).json();
    // a process is never spawned; a container's init says it could not run it
    const notFound = {
      process: 'Could not start: spawn /no/such/agent-server ENOENT (command not found)',
      docker: expect.stringMatching(
        /^The process exited with code 127: .*exec \/no\/such\/agent-server failed: No such file or directory$/,
      ),
    }[runtime];
    expect(runtime === 'process' ? absent : await statusBecomes(t, absent.id, 'ERROR')).toMatchObject({
      status: 'ERROR',
      status_detail: notFound,
    });
    expect((await logLines(t, absent.id)).at(-1)).toMatch(/\/no\/such\/agent-server/);
  });

  it('is ERROR when the agent server never responds', async () => {
    const t = await appOn({ sandboxSpecs: [shellSpec('mute', 'exec sleep 969')], sandboxLimits: { startTimeoutMs: 1500 } });
    const { id } = (await start(t)).json();
    const failed = await statusBecomes(t, id, 'ERROR', 5000);
    expect(failed).toMatchObject({
      status: 'ERROR',
      status_detail: 'The agent server has not responded on /alive for 2 s; its processes still run (Delete ends them)',
    });
  });

  it('passes the spec environment, the session key and the port, and none of the server’s own secrets', async () => {
    process.env.SECRETS_KEY = 'must-not-leak';
    try {
      const t = await appOn({ sandboxSpecs: [{ ...shellSpec('env', 'env; exec sleep 968'), initial_env: { GREETING: 'hello' } }] });
      const { id } = (await start(t)).json();
      const lines = await vi.waitFor(
        async () => {
          const found = await logLines(t, id);
          expect(found).toContainEqual(expect.stringMatching(/^PORT=/));
          return found;
        },
        { timeout: 10_000 },
      );
      expect(lines).toContain('GREETING=hello');
      expect(lines.some((line) => line.startsWith('SESSION_API_KEY='))).toBe(true);
      expect(lines.some((line) => line.startsWith('SECRETS_KEY'))).toBe(false);
    } finally {
      delete process.env.SECRETS_KEY;
    }
  });

  it('pauses the oldest running sandbox to stay under MAX_RUNNING_SANDBOXES, and says which', async () => {
    const t = await appOn({ sandboxLimits: { maxRunning: 2 } });
    const first = (await start(t)).json().id;
    const second = (await start(t)).json().id;
    await running(t, first);
    const third = await start(t);
    expect(third.json().paused_sandbox_ids).toEqual([first]);
    expect(third.headers['x-paused-sandboxes']).toBe(first);
    expect((await sandboxInfo(t, first))?.status).toBe('PAUSED');
    expect((await sandboxInfo(t, second))?.status).not.toBe('PAUSED');

    // resuming the first pauses the oldest of the others
    const resumed = await call(t, 'POST', `/api/v1/sandboxes/${first}/resume`);
    expect(resumed.json()).toEqual({ success: true, paused_sandbox_ids: [second] });
    expect((await sandboxInfo(t, second))?.status).toBe('PAUSED');
  });

  it('counts a live sandbox toward the running cap whatever its health, and tells how many run and exist', async () => {
    const t = await appOn({
      sandboxSpecs: [...loadSandboxSpecs(undefined), shellSpec('mute', 'exec sleep 963')],
      sandboxLimits: { maxRunning: 1, maxSandboxes: 7, startTimeoutMs: 500 },
    });
    expect((await call(t, 'GET', '/api/v1/sandboxes/capacity')).json()).toEqual({
      running: 0,
      max_running: 1,
      sandboxes: 0,
      max_sandboxes: 7,
      runtime,
      isolation: runtime === 'docker' ? 'container' : canSwitchUsers() ? 'uids' : 'none',
      scope: 'server',
    });
    const mute = (await start(t, 'mute')).json().id;
    expect((await statusBecomes(t, mute, 'ERROR', 5000)).status).toBe('ERROR');
    expect((await call(t, 'GET', '/api/v1/sandboxes/capacity')).json()).toMatchObject({ running: 1, sandboxes: 1 });
    const next = (await start(t)).json();
    expect(next.paused_sandbox_ids).toEqual([mute]);
    expect((await call(t, 'GET', '/api/v1/sandboxes/capacity')).json()).toMatchObject({ running: 1, sandboxes: 2 });
  });

  it('finds its sandboxes again after a restart with the same status at once, and one whose start was never recorded', async () => {
    const first = await appOn();
    const a = (await start(first)).json().id;
    const b = (await start(first)).json().id;
    await running(first, a);
    await running(first, b);
    await call(first, 'POST', `/api/v1/sandboxes/${b}/pause`);
    // as when the server stopped between starting it and recording it
    const handleA = await handleOf(first, a);
    await first.db.updateTable('sandboxes').set({ pid: null, process_start: null }).where('id', '=', a).execute();
    apps.splice(apps.indexOf(first), 1);
    await first.close({ keepData: true }); // as on SIGTERM: the sandboxes keep running

    const second = await appOn({ dataDir: first.dataDir });
    // Right away, without waiting: the first health checks ran before the server responded.
    expect((await sandboxInfo(second, a))?.status).toBe('RUNNING');
    expect(await handleOf(second, a)).toEqual(handleA);
    expect((await sandboxInfo(second, b))?.status).toBe('PAUSED');
    expect((await call(second, 'POST', `/api/v1/sandboxes/${b}/resume`)).statusCode).toBe(200);
    expect((await running(second, b)).status).toBe('RUNNING');
  });

  it('takes its other processes along when its main process exits, and shows why', async () => {
    const t = await appOn({ sandboxSpecs: [shellSpec('leaves-children', 'sleep 964 & sleep 1; echo "giving up" >&2; exit 4')] });
    const { id } = (await start(t)).json();
    expect(await argsOnceThere(t, id, ['sleep 964'])).toContain('sleep 964');
    const failed = await statusBecomes(t, id, 'ERROR', 5000);
    expect(failed.status_detail).toBe('The process exited with code 4: giving up');
    expect(await processesOf(t, id)).toEqual([]); // the background sleep went with it
    // A stopped container starts again; ended processes cannot: 404, as OpenHands' process sandboxes answer.
    const resumed = await call(t, 'POST', `/api/v1/sandboxes/${id}/resume`);
    if (runtime === 'process') {
      expect(resumed.statusCode).toBe(404);
      expect(resumed.json()).toEqual({ detail: 'Not Found' });
      expect((await sandboxInfo(t, id))?.status).toBe('ERROR');
    } else expect(resumed.statusCode).toBe(200);
  });

  it('logs the end with the sandbox id, without what the sandbox wrote', async () => {
    let log = '';
    const t = await appOn({
      sandboxSpecs: [shellSpec('failing', 'echo "secret-looking output" >&2; exit 5')],
      logStream: { write: (line: string) => void (log += line) },
    });
    const { id } = (await start(t)).json();
    await statusBecomes(t, id, 'ERROR', 5000);
    const lines = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ sandbox: id, component: 'sandboxes', msg: 'sandbox process ended with an error' }),
    );
    expect(log).not.toContain('secret-looking output');
  });

  it('lists the specs as this runtime runs them, the agent server first', async () => {
    const t = await appOn({ sandboxSpecs: [...loadSandboxSpecs(undefined), shellSpec('idle', 'exec sleep 966')] });
    const page = (await call(t, 'GET', '/api/v1/sandbox-specs/search')).json();
    expect(page.items.map((s: { id: string }) => s.id)).toEqual(['agent-server', 'idle']);
    const agentServer = { process: /build\/agent-server\/main\.js$/, docker: /^\/opt\/agent-server\/main\.js$/ }[runtime];
    expect(page.items[0].command.at(-1)).toMatch(agentServer);
  });

  it('tails the log', async () => {
    const t = await appOn({ sandboxSpecs: [shellSpec('chatty', 'for i in 1 2 3 4 5; do echo line $i; done; exec sleep 965')] });
    const { id } = (await start(t)).json();
    await expect.poll(() => logLines(t, id, 2), { timeout: 10_000 }).toEqual(['line 4', 'line 5']);
  });
});

describe.each(runtimes)('running a command inside a sandbox on the %s runtime (exec)', (runtime) => {
  const idleSpec = { ...shellSpec('idle', 'exec sleep 955'), initial_env: { GREETING: 'hello' }, working_dir: 'work' };
  /** The tests here share one app and one idle sandbox; what one leaves running is cleared after it. */
  let t: TestApp;
  let idle: string;
  beforeAll(async () => {
    t = await startTestApp({ sandboxRuntime: runtime, sandboxSpecs: [idleSpec] });
    idle = (await start(t)).json().id;
  });
  afterAll(() => t.close());
  const exec = (id: string, command: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}) =>
    t.services.sandboxes.exec(sessionKeyCaller, id, command, { timeoutMs: 10_000, ...options });

  it('runs in the working directory with the sandbox environment, and returns exit code and output', async () => {
    const script = 'pwd; echo "$GREETING $EXTRA $HOME"; echo "to stderr" >&2; exit 3';
    const result = await exec(idle, ['sh', '-c', script], { env: { EXTRA: 'there' } });
    const home = homeOf(t, idle);
    expect(result.exitCode).toBe(3);
    expect(result.timedOut).toBe(false);
    // Both streams are in the output; how a container's two streams interleave is the engine's to decide.
    expect(result.output).toContain('to stderr\n');
    expect(result.output.replace('to stderr\n', '')).toContain(`${home}/work\nhello there ${home}\n`);
    expect(await exec(idle, ['pwd'], { cwd: '.' })).toEqual({ exitCode: 0, output: `${home}\n`, timedOut: false });
  });

  it('ends the command and everything it started at the timeout', async () => {
    const result = await exec(idle, ['sh', '-c', 'echo started; sleep 954 & sleep 953'], { timeoutMs: 300 });
    expect(result).toMatchObject({ exitCode: null, timedOut: true, output: 'started\n' });
    const args = await vi.waitFor(
      async () => {
        const left = (await processesOf(t, idle)).map((p) => p.args);
        expect(left.filter((line) => /sleep 95[34]/.test(line))).toEqual([]);
        return left;
      },
      { timeout: 3000 },
    );
    expect(args).toContain('sleep 955'); // the sandbox itself runs on
  });

  it('leaves background processes to the sandbox: paused with it, ended by its delete', async () => {
    const { id } = (await start(t)).json();
    const background = async () => (await processesOf(t, id)).filter((p) => p.args === 'sleep 952');
    expect((await exec(id, ['sh', '-c', 'sleep 952 > /dev/null 2>&1 &'])).exitCode).toBe(0);
    expect(await background()).toHaveLength(1);

    await t.services.sandboxes.pause(sessionKeyCaller, id);
    expect((await background()).map((p) => p.stopped)).toEqual([true]);
    await t.services.sandboxes.resume(sessionKeyCaller, id);
    expect((await background()).map((p) => p.stopped)).toEqual([false]);

    await t.services.sandboxes.delete(sessionKeyCaller, id);
    expect(await processesOf(t, id)).toEqual([]);
  });

  it('refuses a paused or unknown sandbox and a directory outside the sandbox, saying what to do', async () => {
    const run = (sandbox: string, cwd?: string) => exec(sandbox, ['true'], { cwd });
    await expect(run(idle, '../..')).rejects.toMatchObject({
      kind: 'invalid',
      problems: [{ loc: ['cwd'] }],
      message: '../.. is outside the sandbox',
    });
    await expect(run('nope')).rejects.toBeInstanceOf(NotFound);
    await t.services.sandboxes.pause(sessionKeyCaller, idle);
    await expect(run(idle)).rejects.toMatchObject({ kind: 'conflict', message: `Sandbox ${idle} is paused; resume it first` });
  });
});

// About process groups and pids: what only the process runtime has.
describe('process sandboxes', () => {
  it('never signal a process whose pid was reused after a restart, and a delete still ends their own by marker', async () => {
    const first = await app();
    const { id } = (await start(first)).json();
    await running(first, id);
    const pid = await pidOf(first, id);
    apps.splice(apps.indexOf(first), 1);
    await first.close({ keepData: true });
    expect(readProcStat(pid)?.state).toBeDefined();

    // A registry row whose pid now belongs to another process (this one) is MISSING, and that process is never signalled.
    const second = await app({ dataDir: first.dataDir });
    await second.db.updateTable('sandboxes').set({ pid: process.pid, process_start: '1' }).where('id', '=', id).execute();
    expect((await sandboxInfo(second, id))?.status).toBe('MISSING');
    expect((await call(second, 'DELETE', `/api/v1/sandboxes/${id}`)).statusCode).toBe(200);
    expect(readProcStat(process.pid)).toBeDefined(); // we are still alive
    expect(processGroup(pid)).toEqual([]);
  });
});

// The registry's own responses: no runtime plays a part in them; stored on either database.
describe.each(databasesUnderTest())('lists, lookups and the sandbox cap on %s', (database) => {
  it('refuses more than MAX_SANDBOXES with a 409 that says so', async () => {
    const t = await app({ database, sandboxLimits: { maxSandboxes: 2 } });
    await start(t);
    await start(t);
    const third = await call(t, 'POST', '/api/v1/sandboxes');
    expect(third.statusCode).toBe(409);
    expect(third.json().detail).toMatch(/At most 2 sandboxes may exist at once/);
  });

  it('searches newest first with filters and opaque page ids', async () => {
    const t = await app({ database, sandboxSpecs: [...loadSandboxSpecs(undefined), shellSpec('idle', 'exec sleep 967')] });
    const ids = [];
    for (const spec of ['agent-server', 'idle', 'idle']) ids.push((await start(t, spec)).json().id);
    // Searched before and after the pause: a response cached for an unchanged sandbox must not outlive its status.
    const before = (await call(t, 'GET', '/api/v1/sandboxes/search')).json();
    expect(before.items.map((s: { status: string }) => s.status)).not.toContain('PAUSED');
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
    await call(t, 'POST', `/api/v1/sandboxes/${ids[1]}/resume`);
    expect((await call(t, 'GET', '/api/v1/sandboxes/search?status__eq=PAUSED')).json().items).toEqual([]);
    expect(
      (await call(t, 'GET', '/api/v1/sandboxes/search?sandbox_spec_id__eq=agent-server')).json().items.map((s: { id: string }) => s.id),
    ).toEqual([ids[0]]);
  });

  it('responds to batches in request order with null for unknown ids, and refuses more than 100', async () => {
    const t = await app({ database });
    const { id } = (await start(t)).json();
    const batch = (await call(t, 'GET', `/api/v1/sandboxes?id=nope&id=${id}`)).json();
    expect(batch[0]).toBeNull();
    expect(batch[1].id).toBe(id);
    const many = Array.from({ length: 101 }, (_, i) => `id=x${i}`).join('&');
    const tooMany = await call(t, 'GET', `/api/v1/sandboxes?${many}`);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toEqual({ detail: 'Cannot request more than 100 sandboxes at once, got 101' });
  });

  it('responds with 404 and a readable detail for an unknown spec, and for unknown sandbox ids', async () => {
    const t = await app({ database });
    const response = await call(t, 'POST', '/api/v1/sandboxes?sandbox_spec_id=gpu-large');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Sandbox spec gpu-large not found' });
    expect((await call(t, 'DELETE', '/api/v1/sandboxes?sandbox_id=nope')).statusCode).toBe(404);
  });
});

describe('spec lookups and validation', () => {
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

  it('finds specs by id', async () => {
    const t = await app({ sandboxSpecs: [...loadSandboxSpecs(undefined), shellSpec('idle', 'exec sleep 966')] });
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
});
