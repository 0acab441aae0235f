import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Invalid } from './domain-errors';
import { createLogger } from './logger';
import { DATA_DIR_LABEL } from './sandboxes/docker-runtime';
import { SPEC_IMAGE_LABEL } from './sandboxes/docker/labelled-images';
import { ensureDefaultImage } from './sandboxes/docker/sandbox-image';
import { loadSandboxSpecs } from './sandboxes/specs';
import {
  buildTestImage,
  defaultImage,
  hostAddressFor,
  localEngine,
  removeDockerLeftovers,
  runtimesUnderTest,
  type RuntimeName,
} from './testing/docker-engine';
import { type ServerProcess, startServerProcess } from './testing/server-process';
import { type OpenAiStub, startOpenAiStub } from './testing/openai-stub';
import { shellSpec, until } from './testing/sandbox-helpers';
import { startTestApp, TEST_SECRETS_KEY, type TestApp, type TestAppOptions } from './testing/test-app';

/*
 * What every sandbox runtime must do alike, run on each (docker when an engine answers), and what
 * only containers give: isolation from the server, the freezer, limits, re-adoption by label.
 */

const runtimes = runtimesUnderTest('server/sandbox-runtimes.test.ts');
const apps: TestApp[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
});

const stubs: OpenAiStub[] = [];
afterEach(async () => {
  for (const stub of stubs.splice(0)) await stub.close();
});

const call = (t: TestApp, method: 'GET' | 'POST' | 'DELETE', url: string) => t.request({ method, url });
const conversation = async (t: TestApp, id: string) => (await call(t, 'GET', `/api/v1/app-conversations?ids=${id}`)).json()[0];

/** Starts a conversation whose agent runs at once; answers its id once it is READY. */
async function startConversation(t: TestApp): Promise<string> {
  const started = await t.request({
    method: 'POST',
    url: '/api/v1/app-conversations',
    payload: JSON.stringify({ initial_message: { role: 'user', content: [{ type: 'text', text: 'Hello' }], run: true } }),
    headers: { 'content-type': 'application/json' },
  });
  expect(started.statusCode, started.body).toBe(200);
  const task = await until(
    async () => (await call(t, 'GET', `/api/v1/app-conversations/start-tasks?ids=${started.json().id}`)).json()[0],
    (current) => current.status === 'READY' || current.status === 'ERROR',
    30_000,
  );
  expect(task.status, task.detail ?? '').toBe('READY');
  return task.app_conversation_id;
}
const info = async (t: TestApp, id: string) => (await call(t, 'GET', `/api/v1/sandboxes?id=${id}`)).json()[0];
const becomes = (t: TestApp, id: string, status: string, ms = 20_000) =>
  until(
    () => info(t, id),
    (s) => s?.status === status,
    ms,
  );

async function start(t: TestApp, spec?: string): Promise<string> {
  const response = await call(t, 'POST', `/api/v1/sandboxes${spec ? `?sandbox_spec_id=${spec}` : ''}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().id;
}

describe.each(runtimes)('sandboxes on the %s runtime', (runtime: RuntimeName) => {
  async function app(options: TestAppOptions = {}) {
    const t = await startTestApp({ sandboxRuntime: runtime, ...options });
    apps.push(t);
    return t;
  }

  it('starts its agent server, pauses, resumes, and is deleted', async () => {
    const t = await app();
    expect((await call(t, 'GET', '/api/v1/sandboxes/capacity')).json().runtime).toBe(runtime);
    const id = await start(t);
    const run = await becomes(t, id, 'RUNNING');
    expect(run.status).toBe('RUNNING');
    const [agent] = run.exposed_urls;
    expect(agent.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${agent.url}/alive`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${agent.url}/server_info`)).status).toBe(401);
    expect((await fetch(`${agent.url}/server_info`, { headers: { 'X-Session-API-Key': run.session_api_key } })).status).toBe(200);

    expect((await call(t, 'POST', `/api/v1/sandboxes/${id}/pause`)).json()).toEqual({ success: true });
    expect(await info(t, id)).toMatchObject({ status: 'PAUSED', session_api_key: null, exposed_urls: null });
    expect((await call(t, 'POST', `/api/v1/sandboxes/${id}/resume`)).json()).toEqual({ success: true, paused_sandbox_ids: [] });
    expect((await becomes(t, id, 'RUNNING')).status).toBe('RUNNING');

    expect((await call(t, 'DELETE', `/api/v1/sandboxes/${id}`)).json()).toEqual({ success: true });
    expect(await info(t, id)).toBeNull();
    expect((await call(t, 'GET', `/api/v1/sandboxes/${id}/logs`)).statusCode).toBe(404);
  });

  it('shows why a command that exits at once failed, and tails its log', async () => {
    const t = await app({ sandboxSpecs: [shellSpec('broken', 'echo "config file missing" >&2; exit 3')] });
    const id = await start(t);
    const failed = await becomes(t, id, 'ERROR');
    expect(failed.status_detail).toBe('The process exited with code 3: config file missing');
    const { lines } = (await call(t, 'GET', `/api/v1/sandboxes/${id}/logs`)).json();
    expect(lines.some((line: string) => line.endsWith('config file missing'))).toBe(true);
  });

  it('runs commands inside with the sandbox environment, in its directories, and ends them at the timeout', async () => {
    const t = await app({
      sandboxSpecs: [{ ...shellSpec('idle', 'exec sleep 955'), initial_env: { GREETING: 'hello' }, working_dir: 'work' }],
    });
    const id = await start(t);
    await until(
      async () => (await call(t, 'GET', '/api/v1/sandboxes/capacity')).json().running,
      (n) => n === 1,
    );
    const exec = (command: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}) =>
      t.services.sandboxes.exec(id, command, { timeoutMs: 10_000, ...options });

    const result = await exec(['sh', '-c', 'echo "$GREETING $EXTRA"; echo "to stderr" >&2; exit 3'], { env: { EXTRA: 'there' } });
    expect(result).toMatchObject({ exitCode: 3, timedOut: false });
    expect(result.output).toContain('hello there\n');
    expect(result.output).toContain('to stderr\n');
    const work = (await exec(['pwd'])).output.trim();
    expect(path.basename(work)).toBe('work');
    expect((await exec(['pwd'], { cwd: '.' })).output.trim()).toBe(path.dirname(work));
    await expect(exec(['true'], { cwd: '../..' })).rejects.toEqual(new Invalid(['cwd'], '../.. is outside the sandbox'));

    const slow = await exec(['sh', '-c', 'echo started; sleep 954 & sleep 953'], { timeoutMs: 500 });
    expect(slow).toMatchObject({ exitCode: null, timedOut: true, output: 'started\n' });
    const left = await until(
      async () => (await exec(['sh', '-c', 'ps -o args 2>/dev/null || ps ax -o args'])).output,
      (ps) => !/sleep 95[34]/.test(ps),
    );
    expect(left).not.toMatch(/sleep 95[34]/);
  });

  it("stops its agent's run when the sandbox was paused under it, and says why", async () => {
    const llm = await startOpenAiStub([{ hang: true }], await hostAddressFor(runtime));
    stubs.push(llm);
    const t = await app();
    const settings = { llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl, llm_api_key: 'sk-test' };
    expect((await t.postSettings(settings)).statusCode).toBe(200);
    const id = await startConversation(t);
    await llm.waitForRequests(1, 30_000);
    const { sandbox_id: sandbox } = await conversation(t, id);
    await call(t, 'POST', `/api/v1/sandboxes/${sandbox}/pause`);
    await call(t, 'POST', `/api/v1/sandboxes/${sandbox}/resume`);

    const events = await until(
      async () => (await call(t, 'GET', `/api/v1/events/search?conversation_id__eq=${id}&sort_order=TIMESTAMP_DESC&limit=5`)).json().items,
      (items: { kind: string }[]) => items.some((event) => event.kind === 'PauseEvent'),
      20_000,
    );
    expect(events.find((event: { kind: string }) => event.kind === 'PauseEvent')).toMatchObject({ reason: 'sandbox_paused' });
    // The status follows the event on the stream, and the sandbox's own status settles after resume.
    const status = await until(
      async () => (await conversation(t, id)).execution_status,
      (value) => value === 'paused',
      20_000,
    );
    expect(status).toBe('paused');
  });

  it('finds its sandboxes again after a restart, running and paused', async () => {
    const first = await app();
    const a = await start(first);
    const b = await start(first);
    await becomes(first, a, 'RUNNING');
    await becomes(first, b, 'RUNNING');
    await call(first, 'POST', `/api/v1/sandboxes/${b}/pause`);
    apps.splice(apps.indexOf(first), 1);
    await first.close({ keepData: true });

    const second = await app({ dataDir: first.dataDir });
    expect((await info(second, a)).status).toBe('RUNNING');
    expect((await info(second, b)).status).toBe('PAUSED');
    await call(second, 'POST', `/api/v1/sandboxes/${b}/resume`);
    expect((await becomes(second, b, 'RUNNING')).status).toBe('RUNNING');
  });
});

describe.each(runtimes.filter((runtime) => runtime === 'docker'))('only containers (%s)', (runtime) => {
  async function app(options: TestAppOptions = {}) {
    const t = await startTestApp({ sandboxRuntime: runtime, ...options });
    apps.push(t);
    return t;
  }
  const idle = shellSpec('idle', 'exec sleep 951');

  async function runningIdle(t: TestApp): Promise<string> {
    const id = await start(t);
    await until(
      async () => (await t.services.sandboxes.exec(id, ['true'], { timeoutMs: 10_000 }).catch(() => undefined))?.exitCode,
      (code) => code === 0,
    );
    return id;
  }

  /** The image a sandbox's container runs. */
  async function imageOf(id: string): Promise<string | undefined> {
    const engine = (await localEngine())!;
    const [container] = await engine.listContainers({ all: true, filters: JSON.stringify({ label: [`agent-console.sandbox=${id}`] }) });
    return container?.Image;
  }

  /** Runs `test` with an image built from the default one; the test's apps and containers go first, then the image. */
  async function withTestImage(name: string, lines: string[], test: (tag: string) => Promise<void>): Promise<void> {
    const engine = (await localEngine())!;
    const tag = await buildTestImage(engine, name, lines);
    try {
      await test(tag);
    } finally {
      for (const t of apps.splice(0)) await t.close();
      await engine.getImage(tag).remove();
    }
  }

  it('lists the images labelled agent-console.spec=1 as specs and runs sandboxes from them, and from a declared image', () =>
    withTestImage('spec', [`LABEL ${SPEC_IMAGE_LABEL}=1`], async (tag) => {
      const engine = (await localEngine())!;
      // Built FROM the default image, it carries its labels: a server starting now keeps it all the same.
      await ensureDefaultImage(engine, createLogger(false));
      const t = await app({ sandboxSpecs: [...loadSandboxSpecs(undefined), { ...shellSpec('declared', 'exec sleep 957'), image: tag }] });
      const specs: { id: string }[] = (await call(t, 'GET', '/api/v1/sandbox-specs/search')).json().items;
      expect(specs.slice(0, 2)).toMatchObject([
        { id: 'agent-server', image: await defaultImage(engine), command: ['/usr/bin/node', '/opt/agent-server/main.js'] },
        { id: 'declared', image: tag, command: ['sh', '-c', 'exec sleep 957'] },
      ]);
      expect(specs.find((spec) => spec.id === tag)).toMatchObject({ image: tag, command: null, working_dir: '', initial_env: {} });

      const fromLabel = await start(t, tag);
      expect(await becomes(t, fromLabel, 'RUNNING', 30_000)).toMatchObject({ status: 'RUNNING', sandbox_spec_id: tag });
      expect(await imageOf(fromLabel)).toBe(tag);
      const declared = await start(t, 'declared');
      expect(await imageOf(declared)).toBe(tag);
    }));

  it('starts the agent server spec from the Settings image, and names it when it does not run the agent server', () =>
    withTestImage('mute', ['CMD ["sh", "-c", "exec sleep 958"]'], async (tag) => {
      const t = await app({ sandboxLimits: { startTimeoutMs: 3000 } });
      expect((await t.postSettings({ sandbox_runtime_container_image: tag })).statusCode).toBe(200);
      const [spec] = (await call(t, 'GET', '/api/v1/sandbox-specs/search')).json().items;
      expect(spec).toMatchObject({ id: 'agent-server', image: tag, command: null });

      const id = await start(t);
      expect(await imageOf(id)).toBe(tag);
      const detail = `The image ${tag} did not start the agent server (no answer on /alive for 3 s); its processes still run (Delete ends them)`;
      expect(await becomes(t, id, 'ERROR')).toMatchObject({ status: 'ERROR', status_detail: detail });
      // the image it started from, whatever Settings say now
      expect((await t.postSettings({ sandbox_runtime_container_image: null })).statusCode).toBe(200);
      expect((await info(t, id)).status_detail).toBe(detail);
      expect(await imageOf(await start(t))).toBe(await defaultImage((await localEngine())!));
    }));

  it('fails the start clearly when the Settings image is not on the engine (nothing is pulled)', async () => {
    const t = await app();
    expect((await t.postSettings({ sandbox_runtime_container_image: 'agent-console-test-absent:1' })).statusCode).toBe(200);
    const started = (await call(t, 'POST', '/api/v1/sandboxes')).json();
    expect(started).toMatchObject({
      status: 'ERROR',
      status_detail: expect.stringMatching(/^Could not start: The image agent-console-test-absent:1 is not on the Docker engine/),
    });
  });

  it("keeps the server's data dir, keys and environment out of reach", async () => {
    process.env.SECRETS_KEY = 'must-not-leak';
    try {
      const t = await app({ sandboxSpecs: [idle] });
      const id = await runningIdle(t);
      const probe = await t.services.sandboxes.exec(
        id,
        ['sh', '-c', `ls ${t.dataDir} 2>&1; cat ${path.join(t.dataDir, 'agent-console.db')} 2>&1; env; cat /proc/1/environ 2>&1`],
        { timeoutMs: 10_000 },
      );
      expect(fs.existsSync(t.dataDir)).toBe(true);
      expect(probe.output).toContain('No such file or directory');
      expect(probe.output).not.toContain('must-not-leak');
      expect(probe.output).not.toContain(TEST_SECRETS_KEY);
    } finally {
      delete process.env.SECRETS_KEY;
    }
  });

  it('freezes a process that left with setsid and a cleared environment, and ends it on delete', async () => {
    const t = await app({ sandboxSpecs: [idle] });
    const id = await runningIdle(t);
    await t.services.sandboxes.exec(
      id,
      ['sh', '-c', 'setsid env -i sh -c "while :; do date +%s%N > /tmp/beat; sleep 0.1; done" >/dev/null 2>&1 &'],
      {
        timeoutMs: 10_000,
      },
    );
    const engine = (await localEngine())!;
    const [container] = await engine.listContainers({ filters: JSON.stringify({ label: [`agent-console.sandbox=${id}`] }) });
    const beat = async () => (await t.services.sandboxes.exec(id, ['cat', '/tmp/beat'], { timeoutMs: 10_000 })).output;
    await until(beat, (b) => b !== '');

    await t.services.sandboxes.pause(id);
    const top = await engine.getContainer(container!.Id).top();
    expect(top.Processes.some((p: string[]) => p.join(' ').includes('while'))).toBe(true);
    const frozen = fs.readFileSync(`/sys/fs/cgroup/freezer/docker/${container!.Id}/freezer.state`, 'utf8').trim();
    expect(frozen).toBe('FROZEN');
    await t.services.sandboxes.resume(id);
    const before = await beat();
    expect(await until(beat, (b) => b !== before)).not.toBe(before);

    await t.services.sandboxes.delete(id);
    expect(await engine.listContainers({ all: true, filters: JSON.stringify({ label: [`agent-console.sandbox=${id}`] }) })).toEqual([]);
    expect((await engine.listVolumes({ filters: JSON.stringify({ label: [`agent-console.sandbox=${id}`] }) })).Volumes ?? []).toEqual([]);
  });

  it('kills a memory hog and says so', async () => {
    const t = await app({ sandboxSpecs: [shellSpec('hog', 'exec node -e "const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1))"')] });
    const id = await start(t);
    const failed = await becomes(t, id, 'ERROR', 30_000);
    expect(failed.status_detail).toBe('The container ran out of memory (SANDBOX_MEMORY, 512 MiB) and was killed');
  });

  it('finds a container restarted behind its back on its new host port', async () => {
    const t = await app();
    const id = await start(t);
    const before = (await becomes(t, id, 'RUNNING')).exposed_urls[0].url;
    const engine = (await localEngine())!;
    const [container] = await engine.listContainers({ filters: JSON.stringify({ label: [`agent-console.sandbox=${id}`] }) });
    await engine.getContainer(container!.Id).restart({ t: 1 });
    const after = await until(
      async () => (await info(t, id)).exposed_urls?.[0]?.url,
      (url) => url !== undefined && url !== before,
    );
    expect(after).not.toBe(before);
    // the engine publishes the port before the agent server listens: it answers soon after
    const alive = () =>
      fetch(`${after}/alive`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.status,
        () => 0,
      );
    expect(await until(alive, (status) => status === 200)).toBe(200);
  });

  it('is MISSING when its container was removed behind its back, and its delete still removes its volume', async () => {
    const t = await app();
    const id = await start(t);
    await becomes(t, id, 'RUNNING');
    const engine = (await localEngine())!;
    const label = JSON.stringify({ label: [`agent-console.sandbox=${id}`] });
    const [container] = await engine.listContainers({ filters: label });
    await engine.getContainer(container!.Id).remove({ force: true });
    expect(await becomes(t, id, 'MISSING')).toMatchObject({ status: 'MISSING', status_detail: null });
    expect((await call(t, 'DELETE', `/api/v1/sandboxes/${id}`)).json()).toEqual({ success: true });
    expect((await engine.listVolumes({ filters: label })).Volumes ?? []).toEqual([]);
  });

  it('adopts its running and paused containers after a SIGKILL of the server', async () => {
    const engine = (await localEngine())!;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-docker-kill-'));
    const servers: ServerProcess[] = [];
    const server = async () => {
      const started = await startServerProcess({ dataDir, env: { SANDBOX_RUNTIME: 'docker' } });
      servers.push(started);
      return started;
    };
    const status = async (s: ServerProcess, id: string) => JSON.parse((await s.call('GET', `/api/v1/sandboxes?id=${id}`)).body)[0]?.status;
    const containerIds = async () =>
      (await engine.listContainers({ all: true, filters: JSON.stringify({ label: [`${DATA_DIR_LABEL}=${dataDir}`] }) }))
        .map((c) => c.Id)
        .sort();
    try {
      const first = await server();
      const [a, b] = await Promise.all(
        [0, 1].map(async () => JSON.parse((await first.call('POST', '/api/v1/sandboxes')).body).id as string),
      );
      await until(
        () => status(first, a!),
        (s) => s === 'RUNNING',
        30_000,
      );
      await until(
        () => status(first, b!),
        (s) => s === 'RUNNING',
        30_000,
      );
      expect((await first.call('POST', `/api/v1/sandboxes/${b}/pause`)).status).toBe(200);
      const before = await containerIds();
      expect(before).toHaveLength(2);
      await first.kill();

      const second = await server();
      expect(
        await until(
          () => status(second, a!),
          (s) => s === 'RUNNING',
          30_000,
        ),
      ).toBe('RUNNING');
      expect(await status(second, b!)).toBe('PAUSED');
      expect(await containerIds()).toEqual(before);
      expect((await second.call('POST', `/api/v1/sandboxes/${b}/resume`)).status).toBe(200);
      expect(
        await until(
          () => status(second, b!),
          (s) => s === 'RUNNING',
          30_000,
        ),
      ).toBe('RUNNING');
      expect(await containerIds()).toEqual(before);
    } finally {
      for (const s of servers) await s.kill();
      await removeDockerLeftovers(engine, dataDir);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('tells why a container ended while the server was down, and one that ends after its restart', async () => {
    const specs = [shellSpec('soon', 'echo "gone soon" >&2; exit 3'), shellSpec('later', 'sleep 8; echo "gone later" >&2; exit 4')];
    const first = await app({ sandboxSpecs: specs });
    const soon = await start(first, 'soon');
    const later = await start(first, 'later');
    apps.splice(apps.indexOf(first), 1);
    await first.close({ keepData: true });
    const engine = (await localEngine())!;
    const [container] = await engine.listContainers({ all: true, filters: JSON.stringify({ label: [`agent-console.sandbox=${soon}`] }) });
    await until(
      async () => (await engine.getContainer(container!.Id).inspect()).State.Running,
      (running) => !running,
    );

    const second = await app({ dataDir: first.dataDir, sandboxSpecs: specs });
    expect(await becomes(second, soon, 'ERROR')).toMatchObject({ status_detail: 'The process exited with code 3: gone soon' });
    expect(await becomes(second, later, 'ERROR', 30_000)).toMatchObject({ status_detail: 'The process exited with code 4: gone later' });
  });

  it("never touches another server's containers", async () => {
    const first = await app({ sandboxSpecs: [idle] });
    const second = await app({ sandboxSpecs: [idle] });
    const mine = await runningIdle(first);
    const theirs = await runningIdle(second);
    // the other server's id in this one's registry: not found by label, so MISSING, and its delete leaves it alone
    const row = await second.db.selectFrom('sandboxes').selectAll().where('id', '=', theirs).executeTakeFirstOrThrow();
    await first.db
      .insertInto('sandboxes')
      .values({ ...row, session_key: (await first.db.selectFrom('sandboxes').select('session_key').executeTakeFirstOrThrow()).session_key })
      .execute();
    expect((await info(first, theirs)).status).toBe('MISSING');
    expect((await call(first, 'DELETE', `/api/v1/sandboxes/${theirs}`)).statusCode).toBe(200);
    expect((await second.services.sandboxes.exec(theirs, ['true'], { timeoutMs: 10_000 })).exitCode).toBe(0);
    expect((await info(first, mine)).status).not.toBe('MISSING');
  });
});
