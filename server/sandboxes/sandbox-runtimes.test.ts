import { sessionKeyCaller } from '../authz/caller';
import dns from 'node:dns/promises';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger';
import { DATA_DIR_LABEL, DockerRuntime, SANDBOX_LABEL } from './docker-runtime';
import { CONTAINER_ACTIONS, type ContainerAction, ContainerEvents } from './docker/container-events';
import { dockerFromEnv } from './docker/engine';
import { BASE_IMAGE_LABEL, BASE_NEEDS, BUILT_ON_LABEL } from './docker/image-on-base';
import { SPEC_IMAGE_LABEL } from './docker/labelled-images';
import { LimitedSandboxNetwork, unlimitSandboxNetwork } from './docker/network-limits';
import { ensureDefaultImage } from './docker/sandbox-image';
import { ensureSandboxNetwork } from './docker/sandbox-network';
import { loadSandboxSpecs } from './specs';
import {
  buildTestImage,
  defaultImage,
  hostAddressFor,
  localEngine,
  removeDockerLeftovers,
  runtimesUnderTest,
  type RuntimeName,
} from '../testing/docker-engine';
import { type ServerProcess, startServerProcess } from '../testing/server-process';
import { type OpenAiStub, startOpenAiStub } from '../testing/openai-stub';
import { sandboxInfo, shellSpec, statusBecomes } from '../testing/sandbox-helpers';
import { startTestApp, TEST_SECRETS_KEY, type TestApp, type TestAppOptions } from '../testing/test-app';
import { publishedUrl } from '../testing/published-url';

/*
 * What every sandbox runtime must do alike, run on each (docker when an engine responds), and what
 * only containers give: isolation from the server, the freezer, limits, re-adoption by label.
 */

const runtimes = runtimesUnderTest('server/sandboxes/sandbox-runtimes.test.ts');
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

/** Starts a conversation whose agent runs at once; returns its id once it is READY (within `timeout` ms). */
async function startConversation(t: TestApp, timeout = 30_000): Promise<string> {
  const started = await t.request({
    method: 'POST',
    url: '/api/v1/app-conversations',
    payload: JSON.stringify({ initial_message: { role: 'user', content: [{ type: 'text', text: 'Hello' }], run: true } }),
    headers: { 'content-type': 'application/json' },
  });
  expect(started.statusCode, started.body).toBe(200);
  const task = await vi.waitFor(
    async () => {
      const current = (await call(t, 'GET', `/api/v1/app-conversations/start-tasks?ids=${started.json().id}`)).json()[0];
      expect(['READY', 'ERROR']).toContain(current.status);
      return current;
    },
    { timeout },
  );
  expect(task.status, task.detail ?? '').toBe('READY');
  return task.app_conversation_id;
}

/** The newest PauseEvent among the conversation's last five events, if any. */
async function latestPauseEvent(t: TestApp, conversationId: string) {
  const url = `/api/v1/events/search?conversation_id__eq=${conversationId}&sort_order=TIMESTAMP_DESC&limit=5`;
  return ((await call(t, 'GET', url)).json().items as { kind: string }[]).find((event) => event.kind === 'PauseEvent');
}

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

  it("stops its agent's run when the sandbox was paused under it, and says why", async () => {
    const llm = await startOpenAiStub([{ hang: true }]); // on loopback: the server's LLM proxy calls it
    stubs.push(llm);
    const t = await app();
    const settings = { llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl, llm_api_key: 'sk-test' };
    expect((await t.postSettings(settings)).statusCode).toBe(200);
    const id = await startConversation(t);
    await llm.waitForRequests(1, 30_000);
    const { sandbox_id: sandbox } = await conversation(t, id);
    await call(t, 'POST', `/api/v1/sandboxes/${sandbox}/pause`);
    await call(t, 'POST', `/api/v1/sandboxes/${sandbox}/resume`);

    await expect.poll(() => latestPauseEvent(t, id), { timeout: 20_000 }).toMatchObject({ reason: 'sandbox_paused' });
    // The status follows the event on the stream, and the sandbox's own status settles after resume.
    await expect.poll(async () => (await conversation(t, id)).execution_status, { timeout: 20_000 }).toBe('paused');
    // As long as its waits may take together: a container's start and its agent's first call are slow on a busy engine.
  }, 90_000);
});

describe.each(runtimes)('what sandboxes use, on the %s runtime', (runtime: RuntimeName) => {
  it('shows a sandbox running a CPU loop busy, its memory and its workspace on disk, within its limits', async () => {
    const t = await startTestApp({
      sandboxRuntime: runtime,
      sandboxSpecs: [shellSpec('busy', 'head -c 3000000 /dev/zero > blob && while :; do :; done')],
      meterTiming: { sampleEveryMs: 200, writeEveryMs: 60_000, diskEveryMs: 200 },
    });
    apps.push(t);
    const id = await start(t, 'busy');
    const resources = async () => (await call(t, 'GET', `/api/v1/sandboxes/${id}/resources`)).json();
    const latest = async () => (await resources()).samples.at(-1) ?? {};
    await expect.poll(async () => (await latest()).cpu_percent ?? 0, { timeout: 30_000 }).toBeGreaterThan(10);
    await expect.poll(async () => (await latest()).disk_bytes ?? 0, { timeout: 30_000 }).toBeGreaterThanOrEqual(3_000_000);
    const { limits } = await resources();
    expect((await latest()).memory_bytes).toBeGreaterThan(0);
    expect(limits.cpus).toBeGreaterThan(0);
    expect(limits.memory_bytes).toBeGreaterThan((await latest()).memory_bytes);

    const listed = (await call(t, 'GET', `/api/v1/sandboxes/resources?id=${id}&id=unknown`)).json();
    expect(listed[0]).toMatchObject({ sandbox_id: id, latest: { cpu_percent: expect.any(Number) } });
    expect(listed[1]).toEqual({ sandbox_id: 'unknown', latest: null, limits: null });
    expect((await call(t, 'GET', '/api/v1/sandboxes/unknown/resources')).statusCode).toBe(404);
  });
});

describe.each(runtimes.filter((runtime) => runtime === 'docker'))('only containers (%s)', (runtime) => {
  async function app(options: TestAppOptions = {}) {
    const t = await startTestApp({ sandboxRuntime: runtime, ...options });
    apps.push(t);
    return t;
  }
  const idle = shellSpec('idle', 'exec sleep 951');
  const byLabel = (name: string, value: string) => JSON.stringify({ label: [`${name}=${value}`] });

  /** The container of sandbox `id`, as the engine has it. */
  async function containerOf(id: string) {
    const engine = (await localEngine())!;
    const [found] = await engine.listContainers({ all: true, filters: byLabel(SANDBOX_LABEL, id) });
    return engine.getContainer(found!.Id);
  }

  /** A command that connects to `host`:`port` and says how it went: CONNECTED, REFUSED <code> or TIMEOUT. */
  const tryConnect = (host: string, port: number) =>
    `node -e 'const s=require("net").connect(${port},"${host}",()=>{console.log("CONNECTED");process.exit(0)});s.on("error",e=>{console.log("REFUSED "+e.code);process.exit(0)});setTimeout(()=>{console.log("TIMEOUT");process.exit(0)},3000)'`;

  const commandOutput = async (t: TestApp, id: string, command: string) =>
    (await t.services.sandboxes.exec(sessionKeyCaller, id, ['sh', '-c', command], { timeoutMs: 10_000 })).output.trim();

  async function runningIdle(t: TestApp): Promise<string> {
    const id = await start(t);
    await expect
      .poll(
        async () =>
          (await t.services.sandboxes.exec(sessionKeyCaller, id, ['true'], { timeoutMs: 10_000 }).catch(() => undefined))?.exitCode,
        {
          timeout: 10_000,
        },
      )
      .toBe(0);
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
      expect(await statusBecomes(t, fromLabel, 'RUNNING', 30_000)).toMatchObject({ status: 'RUNNING', sandbox_spec_id: tag });
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
      const detail = `The image ${tag} did not start the agent server (no response on /alive for 3 s); its processes still run (Delete ends them)`;
      expect(await statusBecomes(t, id, 'ERROR')).toMatchObject({ status: 'ERROR', status_detail: detail });
      // the image it started from, whatever Settings say now
      expect((await t.postSettings({ sandbox_runtime_container_image: null })).statusCode).toBe(200);
      expect((await sandboxInfo(t, id))?.status_detail).toBe(detail);
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

  /** The images built on base image `base` (its id), removed once the test's apps and containers are gone. */
  async function removeImagesOnBase(base: string): Promise<void> {
    for (const t of apps.splice(0)) await t.close();
    const engine = (await localEngine())!;
    const { Id } = await engine.getImage(base).inspect();
    for (const image of await engine.listImages({ filters: byLabel(BUILT_ON_LABEL, Id) })) await engine.getImage(image.Id).remove();
  }

  it(
    'starts the agent server spec on an image built on the Settings base image, built once per base: the agent works there',
    { timeout: 120_000 },
    () =>
      withTestImage('base', ['LABEL agent-console.test-base=1', 'USER root', 'WORKDIR /'], async (base) => {
        const llm = await startOpenAiStub([
          { toolCalls: [{ name: 'terminal', arguments: { command: 'echo "on the base as $(id -u) in $PWD"' } }] },
          { text: 'Done.' },
        ]);
        stubs.push(llm);
        try {
          const logs: [string, string] = ['', ''];
          const t = await app({ logStream: { write: (line: string) => void (logs[0] += line) } });
          const settings = {
            llm_model: 'openai/stub-model',
            llm_base_url: llm.baseUrl,
            llm_api_key: 'sk-test',
            sandbox_base_container_image: base,
          };
          expect((await t.postSettings(settings)).statusCode).toBe(200);
          const [spec] = (await call(t, 'GET', '/api/v1/sandbox-specs/search')).json().items;
          expect(spec).toMatchObject({ id: 'agent-server', image: base, command: null });

          // Its start builds the image first: on a busy engine, over 30 s.
          const conversationId = await startConversation(t, 90_000);
          const { sandbox_id: sandbox } = await conversation(t, conversationId);
          const built = (await imageOf(sandbox))!;
          expect(built).toMatch(/^agent-console-sandbox-on-base:[0-9a-f]{16}$/);
          expect((await (await localEngine())!.getImage(built).inspect()).Config.Labels).toMatchObject({ [BASE_IMAGE_LABEL]: base });
          await llm.waitForRequests(2, 30_000);
          expect(JSON.stringify(llm.requests[1]?.messages)).toMatch(/on the base as 1000 in \/workspace/);

          const building = /building the sandbox image on the base image/g;
          expect(logs[0].match(building)).toHaveLength(1);
          // The audit log says who built it, on what.
          expect(await specBuilds(t)).toEqual([['done', 'agent-server', base, null, built]]);
          // Another server on the same engine finds it built (by the base's id): the same image, not built again.
          const again = await app({ logStream: { write: (line: string) => void (logs[1] += line) } });
          expect((await again.postSettings({ sandbox_base_container_image: base })).statusCode).toBe(200);
          const second = await start(again);
          expect(await statusBecomes(again, second, 'RUNNING', 30_000)).toMatchObject({ status: 'RUNNING' });
          expect(await imageOf(second)).toBe(built);
          expect(logs[1]).not.toMatch(building);
          expect(await specBuilds(again)).toEqual([]);
        } finally {
          await removeImagesOnBase(base);
        }
      }),
  );

  /** Runs `test` with an image built `FROM scratch` of `files` (name → content or a host file to copy) and `lines`; removes it after. */
  async function withScratchImage(
    files: Record<string, { text: string } | { copy: string }>,
    lines: string[],
    test: (tag: string) => Promise<void>,
  ) {
    const engine = (await localEngine())!;
    const tag = `agent-console-test-scratch:${Date.now().toString(36)}`;
    const context = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-test-scratch-'));
    try {
      for (const [name, file] of Object.entries(files)) {
        if ('text' in file) fs.writeFileSync(path.join(context, name), file.text);
        else fs.copyFileSync(file.copy, path.join(context, name));
        fs.chmodSync(path.join(context, name), 0o755);
      }
      fs.writeFileSync(
        path.join(context, 'Dockerfile'),
        ['FROM scratch', ...Object.keys(files).map((name) => `COPY ${name} /bin/${name}`), ...lines, ''].join('\n'),
      );
      const stream = await engine.buildImage({ context, src: ['Dockerfile', ...Object.keys(files)] }, { t: tag, rm: true, forcerm: true });
      const output = await new Promise<{ error?: string }[]>((resolve, reject) =>
        engine.modem.followProgress(stream, (error: Error | null, result: { error?: string }[]) =>
          error ? reject(error) : resolve(result),
        ),
      );
      expect(output.find((line) => line.error)).toBeUndefined();
      await test(tag);
    } finally {
      for (const t of apps.splice(0)) await t.close();
      await engine
        .getImage(tag)
        .remove()
        .catch(() => undefined);
      fs.rmSync(context, { recursive: true, force: true });
    }
  }

  /** The builds on a base image the audit log has: result, spec, base, why it failed, the image. */
  const specBuilds = async (t: TestApp) =>
    (await t.services.audit.page(sessionKeyCaller, 'resource_type:sandbox_spec')).audit_logs.map((e) => [
      e.result,
      e.resource_id,
      e.resource_target,
      e.reason,
      e.diff.image?.new,
    ]);

  const startOnBase = async (base: string) => {
    const t = await app();
    expect((await t.postSettings({ sandbox_base_container_image: base })).statusCode).toBe(200);
    return { sandbox: (await call(t, 'POST', '/api/v1/sandboxes')).json(), builds: await specBuilds(t) };
  };

  it('fails the start clearly when the base image is not on the engine (nothing is pulled)', async () => {
    expect(await startOnBase('agent-console-test-absent-base:1')).toMatchObject({
      sandbox: {
        status: 'ERROR',
        status_detail:
          'Could not start: The base image agent-console-test-absent-base:1 is not on the Docker engine (images are never pulled: build or load it there)',
      },
      // Nothing was built.
      builds: [],
    });
  });

  it('fails the start clearly when the base image lacks what the agent server needs: saying what it lacks, and what a base must be', async () => {
    const busybox = ['/bin/busybox', '/usr/bin/busybox'].find((candidate) => fs.existsSync(candidate))!;
    await withScratchImage({ busybox: { copy: busybox } }, ['RUN ["/bin/busybox", "--install", "-s", "/bin"]'], async (base) => {
      const why = `The base image ${base} lacks bash, git: it must be ${BASE_NEEDS}`;
      expect(await startOnBase(base)).toMatchObject({
        sandbox: { status: 'ERROR', status_detail: `Could not start: ${why}` },
        builds: [['failed', 'agent-server', base, why, expect.stringMatching(/^agent-console-sandbox-on-base:/)]],
      });
    });
    await withScratchImage({ hello: { text: 'no shell here\n' } }, [], async (base) => {
      expect(await startOnBase(base)).toMatchObject({
        sandbox: { status: 'ERROR', status_detail: `Could not start: The base image ${base} has no /bin/sh: it must be ${BASE_NEEDS}` },
      });
    });
  });

  it("cannot reach another sandbox's ports, only the host and beyond", async () => {
    const t = await app();
    const [one, other] = [await start(t), await start(t)];
    await statusBecomes(t, one, 'RUNNING');
    await statusBecomes(t, other, 'RUNNING');
    const addressOf = async (id: string) => {
      const info = await (await containerOf(id)).inspect();
      return Object.values(info.NetworkSettings.Networks)[0]!.IPAddress;
    };
    const from = (id: string, command: string) => commandOutput(t, id, command);
    // Its own agent server answers inside it; the other's does not from here.
    expect(await from(one, tryConnect('127.0.0.1', 8000))).toBe('CONNECTED');
    expect(await from(one, tryConnect(await addressOf(other), 8000))).not.toBe('CONNECTED');
    // The host does (the server's own API, on the host's loopback through the gateway, is no sandbox).
    const host = await hostAddressFor(runtime);
    const server = net.createServer((socket) => socket.end()).listen(0, host.host);
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      expect(await from(one, tryConnect(host.host, (server.address() as net.AddressInfo).port))).toBe('CONNECTED');
    } finally {
      server.close();
    }
  });

  it('reaches no address beyond the host but the internet (and its name servers): not the LAN, cloud metadata or carrier NAT', async () => {
    const engine = (await localEngine())!;
    const image = await defaultImage(engine);
    // The host keeps the rules an earlier server put in place: gone, this server's start must put them back.
    await unlimitSandboxNetwork(engine, image, await ensureSandboxNetwork(engine));
    const t = await app({ sandboxSpecs: [idle], sandboxNetwork: new LimitedSandboxNetwork(engine, image, createLogger(false)) });
    const id = await runningIdle(t);
    const beyond = ['169.254.169.254', '10.1.2.3', '172.31.0.1', '192.168.1.1', '100.64.0.1'];
    const outcomes = await Promise.all(beyond.map(async (host) => `${host}: ${await commandOutput(t, id, tryConnect(host, 80))}`));
    // Refused at once by the host's rules: not a timeout, not whatever answers there.
    expect(outcomes).toEqual(beyond.map((host) => `${host}: REFUSED ECONNREFUSED`));
    // Names resolve as on the host, whose name servers may well have private addresses (they do on CI).
    const name = 'registry.npmjs.org';
    const onHost = await dns.lookup(name, { family: 4 }).then(
      ({ address }) => address,
      () => undefined,
    );
    if (!onHost && process.env.CI) throw new Error(`CI must resolve ${name} (npm ci did) to compare`);
    const lookup = `node -e 'require("dns").lookup("${name}", 4, (error, address) => console.log(error ? error.code : address))'`;
    if (onHost) expect(await commandOutput(t, id, lookup)).toBe(onHost);
  });

  it("keeps the server's data dir, keys and environment out of reach", async () => {
    process.env.SECRETS_KEY = 'must-not-leak';
    try {
      const t = await app({ sandboxSpecs: [idle] });
      const id = await runningIdle(t);
      const probe = await t.services.sandboxes.exec(
        sessionKeyCaller,
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
      sessionKeyCaller,
      id,
      ['sh', '-c', 'setsid env -i sh -c "while :; do date +%s%N > /tmp/beat; sleep 0.1; done" >/dev/null 2>&1 &'],
      {
        timeoutMs: 10_000,
      },
    );
    const engine = (await localEngine())!;
    const [container] = await engine.listContainers({ filters: JSON.stringify({ label: [`agent-console.sandbox=${id}`] }) });
    const beat = async () => (await t.services.sandboxes.exec(sessionKeyCaller, id, ['cat', '/tmp/beat'], { timeoutMs: 10_000 })).output;
    await expect.poll(beat, { timeout: 10_000 }).not.toBe('');

    await t.services.sandboxes.pause(sessionKeyCaller, id);
    const top = await engine.getContainer(container!.Id).top();
    expect(top.Processes.some((p: string[]) => p.join(' ').includes('while'))).toBe(true);
    const frozen = fs.readFileSync(`/sys/fs/cgroup/freezer/docker/${container!.Id}/freezer.state`, 'utf8').trim();
    expect(frozen).toBe('FROZEN');
    await t.services.sandboxes.resume(sessionKeyCaller, id);
    const before = await beat();
    await expect.poll(beat, { timeout: 10_000 }).not.toBe(before);

    await t.services.sandboxes.delete(sessionKeyCaller, id);
    expect(await engine.listContainers({ all: true, filters: JSON.stringify({ label: [`agent-console.sandbox=${id}`] }) })).toEqual([]);
    expect((await engine.listVolumes({ filters: JSON.stringify({ label: [`agent-console.sandbox=${id}`] }) })).Volumes ?? []).toEqual([]);
  });

  it('pauses while a command is starting in the container, and resumes: the pause waits for it, so the engine never keeps the container locked', async () => {
    const t = await app({ sandboxSpecs: [idle] });
    const id = await runningIdle(t);
    const container = await containerOf(id);
    const thaw = () => fs.writeFileSync(`/sys/fs/cgroup/freezer/docker/${container.id}/freezer.state`, 'THAWED');
    // A command that joins the container as it freezes can lock it in the engine for good: the
    // pause follows the command by one of several delays, to meet its start. A command the pause
    // gets ahead of is refused: the container is paused.
    for (const delayMs of [0, 10, 20, 30, 40, 60, 80, 120]) {
      const command = t.services.sandboxes.exec(sessionKeyCaller, id, ['true'], { timeoutMs: 10_000 }).then(
        ({ exitCode }) => exitCode,
        () => 'refused',
      );
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      await t.services.sandboxes.pause(sessionKeyCaller, id);
      const resumed = await Promise.race([
        t.services.sandboxes.resume(sessionKeyCaller, id).then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 15_000)),
      ]);
      // Thawed by hand when it failed, so the containers of later tests can still be removed.
      if (!resumed) thaw();
      expect(resumed, `the resume after a pause ${delayMs} ms after a command`).toBe(true);
      expect([0, 'refused']).toContain(await command);
    }
  });

  it("gives a container Settings' resource factor times the memory and CPUs", async () => {
    const t = await app({ sandboxSpecs: [idle] });
    expect((await t.postSettings({ remote_runtime_resource_factor: 2 })).statusCode).toBe(200);
    const id = await start(t, 'idle');
    const { HostConfig } = await (await containerOf(id)).inspect();
    expect({ memory: HostConfig.Memory, cpus: HostConfig.NanoCpus }).toEqual({ memory: 2 * 512 * 2 ** 20, cpus: 2 * 1e9 });
  });

  it('kills a memory hog and says so', async () => {
    const t = await app({ sandboxSpecs: [shellSpec('hog', 'exec node -e "const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1))"')] });
    const id = await start(t);
    const failed = await statusBecomes(t, id, 'ERROR', 30_000);
    expect(failed.status_detail).toBe(
      "The container ran out of memory (512 MiB: SANDBOX_MEMORY times Settings' resource factor) and was killed",
    );
  });

  it('finds a container restarted behind its back on its new host port', async () => {
    const t = await app();
    const id = await start(t);
    const before = (await statusBecomes(t, id, 'RUNNING')).exposed_urls?.[0]?.url;
    const engine = (await localEngine())!;
    const [container] = await engine.listContainers({ filters: JSON.stringify({ label: [`agent-console.sandbox=${id}`] }) });
    await engine.getContainer(container!.Id).restart({ t: 1 });
    const after: string = await vi.waitFor(
      async () => {
        const url = (await sandboxInfo(t, id))?.exposed_urls?.[0]?.url;
        expect(url).toBeDefined();
        expect(url).not.toBe(before);
        return url!;
      },
      { timeout: 10_000 },
    );
    // the engine publishes the port before the agent server listens: it responds soon after
    const alive = () =>
      fetch(`${after}/alive`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.status,
        () => 0,
      );
    await expect.poll(alive, { timeout: 10_000 }).toBe(200);
  });

  it('is MISSING when its container was removed behind its back, and its delete still removes its volume', async () => {
    const t = await app();
    const id = await start(t);
    await statusBecomes(t, id, 'RUNNING');
    const engine = (await localEngine())!;
    const label = JSON.stringify({ label: [`agent-console.sandbox=${id}`] });
    const [container] = await engine.listContainers({ filters: label });
    await engine.getContainer(container!.Id).remove({ force: true });
    expect(await statusBecomes(t, id, 'MISSING')).toMatchObject({ status: 'MISSING', status_detail: null });
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
      await expect.poll(() => status(first, a!), { timeout: 30_000 }).toBe('RUNNING');
      await expect.poll(() => status(first, b!), { timeout: 30_000 }).toBe('RUNNING');
      expect((await first.call('POST', `/api/v1/sandboxes/${b}/pause`)).status).toBe(200);
      const before = await containerIds();
      expect(before).toHaveLength(2);
      await first.kill();

      const second = await server();
      await expect.poll(() => status(second, a!), { timeout: 30_000 }).toBe('RUNNING');
      expect(await status(second, b!)).toBe('PAUSED');
      expect(await containerIds()).toEqual(before);
      expect((await second.call('POST', `/api/v1/sandboxes/${b}/resume`)).status).toBe(200);
      await expect.poll(() => status(second, b!), { timeout: 30_000 }).toBe('RUNNING');
      expect(await containerIds()).toEqual(before);
    } finally {
      for (const s of servers) await s.kill();
      await removeDockerLeftovers(engine, dataDir);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('tells why a container ended while the server was down, one that ends after its restart, and one that failed, was started again and failed again', async () => {
    const waitForEnd = 'until [ -f end ]; do sleep 0.1; done';
    const specs = [
      shellSpec('soon', 'echo "gone soon" >&2; exit 3'),
      shellSpec('later', `${waitForEnd}; echo "gone later" >&2; exit 4`),
      shellSpec(
        'again',
        `if [ -f ran ]; then ${waitForEnd}; echo "failed again" >&2; exit 5; fi; touch ran; echo "failed once" >&2; exit 6`,
      ),
    ];
    const first = await app({ sandboxSpecs: specs });
    const soon = await start(first, 'soon');
    const later = await start(first, 'later');
    const again = await start(first, 'again');
    expect(await statusBecomes(first, again, 'ERROR')).toMatchObject({ status_detail: 'The process exited with code 6: failed once' });
    apps.splice(apps.indexOf(first), 1);
    await first.close({ keepData: true });
    const ended = await containerOf(soon);
    await expect.poll(async () => (await ended.inspect()).State.Running, { timeout: 10_000 }).toBe(false);
    // started again behind the back of a server that is down
    await (await containerOf(again)).start();

    const second = await app({ dataDir: first.dataDir, sandboxSpecs: specs });
    expect(await statusBecomes(second, soon, 'ERROR')).toMatchObject({ status_detail: 'The process exited with code 3: gone soon' });
    // it runs again: how it failed before is history
    expect(await statusBecomes(second, again, 'STARTING')).toMatchObject({ status_detail: null });
    for (const id of [later, again]) await second.services.sandboxes.exec(sessionKeyCaller, id, ['touch', 'end'], { timeoutMs: 10_000 });
    expect(await statusBecomes(second, later, 'ERROR')).toMatchObject({ status_detail: 'The process exited with code 4: gone later' });
    const failedAgain = await statusBecomes(second, again, 'ERROR');
    expect(failedAgain.status_detail).toMatch(/^The process exited with code 5: .*failed again$/);
  });

  it('takes a container stopped or killed behind its back for a stop it can resume, and a crash on its own for an error', async () => {
    const crash = shellSpec('crash', 'until [ -f crash-now ]; do sleep 0.1; done; rm crash-now; echo "boom" >&2; exit 5');
    const t = await app({ sandboxSpecs: [idle, crash] });
    const stopped = await runningIdle(t);
    const crashing = await start(t, 'crash');
    const container = await containerOf(stopped);
    const crasher = await containerOf(crashing);
    /** Crashes the other sandbox: its end comes after what was done before on the engine's event stream, so once it shows, that was taken in. */
    const crashAfterwards = async () => {
      await t.services.sandboxes.exec(sessionKeyCaller, crashing, ['touch', 'crash-now'], { timeoutMs: 10_000 });
      const crashed = await statusBecomes(t, crashing, 'ERROR');
      expect(crashed.status_detail).toMatch(/^The process exited with code 5: .*boom$/);
    };

    await container.stop({ t: 5 });
    expect((await container.inspect()).State).toMatchObject({ ExitCode: 143, OOMKilled: false, Error: '' });
    await crashAfterwards();
    expect(await sandboxInfo(t, stopped)).toMatchObject({ status: 'PAUSED', status_detail: null, exposed_urls: null });

    // started again behind its back, it runs (its spec has no agent server: STARTING, not failed)
    await container.start();
    expect(await statusBecomes(t, stopped, 'STARTING')).toMatchObject({ status_detail: null });
    expect((await t.services.sandboxes.exec(sessionKeyCaller, stopped, ['true'], { timeoutMs: 10_000 })).exitCode).toBe(0);

    await container.kill();
    expect((await container.inspect()).State).toMatchObject({ ExitCode: 137, OOMKilled: false });
    await crasher.start();
    expect(await statusBecomes(t, crashing, 'STARTING')).toMatchObject({ status_detail: null });
    await crashAfterwards();
    expect(await sandboxInfo(t, stopped)).toMatchObject({ status: 'PAUSED', status_detail: null });

    expect((await call(t, 'POST', `/api/v1/sandboxes/${stopped}/resume`)).json()).toEqual({ success: true, paused_sandbox_ids: [] });
    expect(await statusBecomes(t, stopped, 'STARTING')).toMatchObject({ status_detail: null });
    expect((await t.services.sandboxes.exec(sessionKeyCaller, stopped, ['true'], { timeoutMs: 10_000 })).exitCode).toBe(0);
  });

  it('follows a pause and an unpause behind its back, and notifies the agent server as after its own resume', async () => {
    const llm = await startOpenAiStub([{ hang: true }]); // on loopback: the server's LLM proxy calls it
    stubs.push(llm);
    const t = await app();
    const settings = { llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl, llm_api_key: 'sk-test' };
    expect((await t.postSettings(settings)).statusCode).toBe(200);
    const id = await startConversation(t);
    await llm.waitForRequests(1, 30_000);
    const { sandbox_id: sandbox } = await conversation(t, id);
    const container = await containerOf(sandbox);

    await container.pause();
    expect(await statusBecomes(t, sandbox, 'PAUSED', 3000)).toMatchObject({ status: 'PAUSED', exposed_urls: null });
    await container.unpause();
    expect((await statusBecomes(t, sandbox, 'RUNNING', 5000)).status).toBe('RUNNING');
    await expect.poll(() => latestPauseEvent(t, id), { timeout: 20_000 }).toMatchObject({ reason: 'sandbox_paused' });
    await expect.poll(async () => (await conversation(t, id)).execution_status, { timeout: 20_000 }).toBe('paused');
  });

  it('responds to a resume the engine refuses with its reason, not a 500, and still deletes the sandbox', async () => {
    const t = await app({ sandboxSpecs: [idle] });
    const id = await runningIdle(t);
    await (await containerOf(id)).stop({ t: 5 });
    await statusBecomes(t, id, 'PAUSED');
    // the engine cannot mount its home any more: it refuses to start the container
    const engine = (await localEngine())!;
    fs.rmSync((await engine.getVolume(`agent-console-${id}`).inspect()).Mountpoint, { recursive: true, force: true });

    const refused = await call(t, 'POST', `/api/v1/sandboxes/${id}/resume`);
    expect(refused.statusCode).toBe(503);
    expect(refused.json().detail).toMatch(new RegExp(`^The Docker engine could not resume sandbox ${id}: .*no such file or directory`));
    expect((await call(t, 'DELETE', `/api/v1/sandboxes/${id}`)).json()).toEqual({ success: true });
    expect(await engine.listContainers({ all: true, filters: byLabel(SANDBOX_LABEL, id) })).toEqual([]);
  });

  it('sees all its sandboxes with one listing, and gives no address for a stopped one', async () => {
    const t = await app({ sandboxSpecs: [idle] });
    const running = await runningIdle(t);
    const stopped = await runningIdle(t);
    await (await containerOf(stopped)).stop({ t: 5 });
    const docker = dockerFromEnv(process.env.DOCKER_HOST);
    const runtime = new DockerRuntime({
      docker,
      dataDir: t.dataDir,
      image: 'unused',
      limits: { memoryBytes: 2 ** 29, cpus: 1, pids: 64 },
      network: new LimitedSandboxNetwork(docker, 'unused', createLogger(false)),
      stopGraceMs: 1000,
      log: createLogger(false),
    });
    const records = await t.db.selectFrom('sandboxes').selectAll().orderBy('created_at').execute();
    const listings = vi.spyOn(docker, 'listContainers');
    const perContainer = vi.spyOn(docker, 'getContainer');

    const seen = await Promise.all(records.map(async (record) => Promise.all([runtime.state(record), runtime.agentServerUrl(record)])));
    expect(new Map(records.map((record, index) => [record.id, seen[index]]))).toEqual(
      new Map([
        [running, ['running', expect.stringMatching(publishedUrl)]],
        [stopped, ['paused', undefined]],
      ]),
    );
    expect(listings).toHaveBeenCalledTimes(1);
    expect(perContainer).not.toHaveBeenCalled();
  });

  it('removes, at start, the containers and volumes of its data dir that no sandbox in its registry owns, and nothing of another data dir', async () => {
    const engine = (await localEngine())!;
    const first = await app({ sandboxSpecs: [idle] });
    const kept = await runningIdle(first);
    const halfDeleted = await runningIdle(first);
    await first.db.deleteFrom('sandboxes').where('id', '=', halfDeleted).execute();
    apps.splice(apps.indexOf(first), 1);
    await first.close({ keepData: true });
    // a start whose server stopped before it recorded it: only its volume was made
    const labels = (dataDir: string, id: string) => ({ [SANDBOX_LABEL]: id, [DATA_DIR_LABEL]: dataDir });
    await engine.createVolume({
      Name: `agent-console-test-unrecorded-${path.basename(first.dataDir)}`,
      Labels: labels(first.dataDir, 'unrecorded'),
    });
    // another server's, of a sandbox this one does not know either
    const otherDir = `${first.dataDir}-other`;
    await engine.createVolume({ Name: `agent-console-test-other-${path.basename(first.dataDir)}`, Labels: labels(otherDir, 'theirs') });
    await engine.createContainer({ Image: await defaultImage(engine), Cmd: ['true'], Labels: labels(otherDir, 'theirs') });
    try {
      const second = await app({ dataDir: first.dataDir, sandboxSpecs: [idle] });
      const volumesOf = async (id: string) => ((await engine.listVolumes({ filters: byLabel(SANDBOX_LABEL, id) })).Volumes ?? []).length;
      const containersOf = async (id: string) => (await engine.listContainers({ all: true, filters: byLabel(SANDBOX_LABEL, id) })).length;
      const left = () => Promise.all([containersOf(halfDeleted), volumesOf(halfDeleted), volumesOf('unrecorded')]);
      await expect.poll(left, { timeout: 10_000 }).toEqual([0, 0, 0]);
      expect([await containersOf(kept), await volumesOf(kept), await containersOf('theirs'), await volumesOf('theirs')]).toEqual([
        1, 1, 1, 1,
      ]);
      expect((await sandboxInfo(second, kept))?.status).not.toBe('MISSING');
    } finally {
      await removeDockerLeftovers(engine, otherDir);
    }
  });

  it("follows the engine's events again when their stream breaks, with those of the gap and none twice", async () => {
    const t = await app({ sandboxSpecs: [idle] });
    const container = await containerOf(await runningIdle(t));
    const engine = (await localEngine())!;
    // a way to the engine whose connections the test can cut
    const proxyPath = path.join(t.dataDir, 'engine.sock');
    const links = new Set<net.Socket>();
    const proxy = net.createServer((client) => {
      const upstream = net.connect((engine.modem as unknown as { socketPath: string }).socketPath);
      client.pipe(upstream).pipe(client);
      for (const end of [client, upstream]) {
        links.add(end);
        end.on('error', () => undefined);
        end.on('close', () => {
          links.delete(end);
          client.destroy();
          upstream.destroy();
        });
      }
    });
    await new Promise<void>((resolve) => proxy.listen(proxyPath, resolve));
    const seen: ContainerAction[] = [];
    const events = new ContainerEvents(
      new Docker({ socketPath: proxyPath, version: 'v1.41' }),
      `${DATA_DIR_LABEL}=${t.dataDir}`,
      async ({ action }) => void seen.push(action),
      createLogger(false),
    );
    /** What the engine itself says happened since `from`, up to a second from now (it may say an unpause twice under load). */
    const engineActions = async (from: number) => {
      const stream = (await engine.getEvents({
        since: from,
        until: Date.now() / 1000 + 1,
        filters: { type: ['container'], label: [`${DATA_DIR_LABEL}=${t.dataDir}`], event: [...CONTAINER_ACTIONS] },
      })) as unknown as AsyncIterable<Buffer>;
      let text = '';
      for await (const chunk of stream) text += chunk.toString();
      return text
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => (JSON.parse(line) as { Action: ContainerAction }).Action);
    };
    try {
      const from = Date.now() / 1000;
      await events.follow();
      // SIGWINCH: a signal its processes ignore
      await container.kill({ signal: 'SIGWINCH' });
      await expect.poll(() => [...seen], { timeout: 10_000 }).toEqual(['kill']);
      for (const link of links) link.destroy();
      await container.kill({ signal: 'SIGWINCH' });
      await container.pause();
      await container.unpause();
      await expect.poll(() => seen.includes('unpause'), { timeout: 10_000 }).toBe(true);
      const happened = await engineActions(from);
      expect(happened.slice(0, 3)).toEqual(['kill', 'kill', 'unpause']);
      // Each of them, those of the gap included, once.
      await expect.poll(() => [...seen], { timeout: 10_000 }).toEqual(happened);
    } finally {
      events.close();
      await new Promise((resolve) => proxy.close(resolve));
      for (const link of links) link.destroy();
    }
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
    expect((await sandboxInfo(first, theirs))?.status).toBe('MISSING');
    expect((await call(first, 'DELETE', `/api/v1/sandboxes/${theirs}`)).statusCode).toBe(200);
    expect((await second.services.sandboxes.exec(sessionKeyCaller, theirs, ['true'], { timeoutMs: 10_000 })).exitCode).toBe(0);
    expect((await sandboxInfo(first, mine))?.status).not.toBe('MISSING');
  });
});
