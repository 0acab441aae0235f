import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SandboxSpec } from '../../src/contract/sandboxes';
import { ConfigError } from '../config';
import { ContainerSpecCatalog } from './docker/container-specs';
import { BaseImageUnusable } from './docker/image-on-base';
import { createLogger } from '../logger';
import { AGENT_SERVER_CONTAINER_COMMAND } from './docker/sandbox-image';
import { fixedSpecCatalog } from './spec-catalog';
import { AGENT_SERVER_SPEC_ID, loadSandboxSpecs } from './specs';
import { sandboxStatus } from './status';

function specsFile(content: unknown): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'specs-')), 'specs.json');
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('loadSandboxSpecs', () => {
  it('has the agent server first, then the declared specs', () => {
    const specs = loadSandboxSpecs(
      specsFile([{ id: 'python', command: ['python3', '-m', 'http.server'], initial_env: { A: '1' }, working_dir: 'work' }]),
    );
    expect(specs.map((s) => s.id)).toEqual([AGENT_SERVER_SPEC_ID, 'python']);
    expect(specs[1]).toMatchObject({ command: ['python3', '-m', 'http.server'], initial_env: { A: '1' }, working_dir: 'work' });
  });

  it('dates the agent server spec from its build and the declared ones from their file, the same on every load', () => {
    const agentServer = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-build-')), 'main.js');
    fs.writeFileSync(agentServer, '');
    const built = new Date('2026-03-04T05:06:07.000Z');
    fs.utimesSync(agentServer, built, built);
    const file = specsFile([{ id: 'python', command: ['python3'] }]);
    const declared = new Date('2026-02-03T04:05:06.000Z');
    fs.utimesSync(file, declared, declared);

    const load = () => loadSandboxSpecs(file, { agentServerScript: agentServer }).map((spec) => spec.created_at);
    expect(load()).toEqual([built.toISOString(), declared.toISOString()]);
    expect(load()).toEqual(load());
    // Without a build there is no date to give (and no sandbox starts): not the time of the load.
    expect(loadSandboxSpecs(undefined, { agentServerScript: `${agentServer}.missing` })[0]!.created_at).toBe(new Date(0).toISOString());
  });

  it("takes specs with an image on the docker runtime, with the image's own command when they name none", () => {
    const file = specsFile([
      { id: 'python', image: 'python:3.12' },
      { id: 'web', image: 'nginx:1', command: ['nginx', '-g', 'daemon off;'] },
    ]);
    const specs = loadSandboxSpecs(file, { runtime: 'docker' });
    expect(specs.slice(1)).toMatchObject([
      { id: 'python', image: 'python:3.12', command: null },
      { id: 'web', image: 'nginx:1', command: ['nginx', '-g', 'daemon off;'] },
    ]);
  });

  it('refuses a spec with an image on the process runtime', () => {
    const file = specsFile([{ id: 'python', image: 'python:3.12' }]);
    expect(() => loadSandboxSpecs(file)).toThrow(ConfigError);
    expect(() => loadSandboxSpecs(file, { runtime: 'process' })).toThrow(
      `SANDBOX_SPECS_FILE ${file}: spec "python" has an image, which needs SANDBOX_RUNTIME=docker`,
    );
  });

  it.each([
    ['not JSON', '{', /cannot be read as JSON/],
    ['a spec without a command or an image', [{ id: 'x' }], /0\.command: A spec without an image needs a command$/],
    ['an empty command', [{ id: 'x', command: [] }], /0\.command/],
    ['an empty image', [{ id: 'x', image: '' }], /0\.image/],
    ['an unknown field', [{ id: 'x', command: ['y'], entrypoint: 'z' }], /0\.entrypoint: Extra inputs are not permitted/],
    ['a repeated id', [{ id: 'agent-server', command: ['y'] }], /"agent-server" is used twice/],
    ['a working_dir outside the sandbox', [{ id: 'x', command: ['y'], working_dir: '../../etc' }], /inside the sandbox directory/],
    ['an absolute working_dir', [{ id: 'x', command: ['y'], working_dir: '/etc' }], /inside the sandbox directory/],
  ])('refuses %s with a clear message', (_name, content, message) => {
    expect(() => loadSandboxSpecs(specsFile(content), { runtime: 'docker' })).toThrow(ConfigError);
    expect(() => loadSandboxSpecs(specsFile(content), { runtime: 'docker' })).toThrow(message);
  });
});

describe('ContainerSpecCatalog', () => {
  const spec = (id: string, fields: Partial<SandboxSpec> = {}): SandboxSpec => ({
    id,
    command: ['sh', '-c', 'exec sleep 1'],
    created_at: '2026-11-26T10:00:00.000Z',
    initial_env: {},
    working_dir: '',
    ...fields,
  });
  const declared = [
    ...loadSandboxSpecs(undefined),
    spec('shell'),
    spec('python', { image: 'python:3.12', command: null }),
    spec('taken:1', { image: 'declared:1' }),
  ];
  /** Builds on a base by naming it, as ImagesOnBase would tag it; refuses `missing:…`. */
  const onBase = {
    imageOn: async (base: string) => {
      if (base.startsWith('missing')) throw new BaseImageUnusable(`The base image ${base} is not on the Docker engine`);
      if (base.startsWith('broken')) throw new Error('engine hiccup');
      return `agent-console-sandbox-on-base:${base.replace(/\W/g, '')}`;
    },
  };
  const catalog = (settingsImage: string | null, labelled: SandboxSpec[] = [], base: string | null = null) =>
    new ContainerSpecCatalog({
      declared,
      defaultImage: 'agent-console-sandbox:abc',
      settingsImages: async () => ({ runtime: settingsImage, base }),
      labelled: fixedSpecCatalog(labelled),
      onBase,
      log: createLogger(false),
    });

  it("runs the agent server spec on the default image's agent server, specs without an image in the default image", async () => {
    expect(await catalog(null).list()).toMatchObject([
      { id: AGENT_SERVER_SPEC_ID, image: 'agent-console-sandbox:abc', command: AGENT_SERVER_CONTAINER_COMMAND },
      { id: 'shell', image: 'agent-console-sandbox:abc', command: ['sh', '-c', 'exec sleep 1'] },
      { id: 'python', image: 'python:3.12', command: null },
      { id: 'taken:1', image: 'declared:1' },
    ]);
  });

  it('runs the agent server spec from the Settings image, with its own command, and nothing else from it', async () => {
    const specs = await catalog('my/agent:2').list();
    expect(specs[0]).toMatchObject({ id: AGENT_SERVER_SPEC_ID, image: 'my/agent:2', command: null });
    expect(specs[1]).toMatchObject({ id: 'shell', image: 'agent-console-sandbox:abc' });
  });

  it('runs the agent server spec on an image built on the Settings base image when a start needs it; the runtime image wins', async () => {
    const onPython = catalog(null, [], 'python:3.12');
    const [agentServer, shell] = await onPython.list();
    expect(agentServer).toMatchObject({ id: AGENT_SERVER_SPEC_ID, image: 'python:3.12', command: null });
    expect(await onPython.ready(agentServer!)).toEqual({ spec: { ...agentServer, image: 'agent-console-sandbox-on-base:python312' } });
    // Other specs are ready as listed.
    expect(await onPython.ready(shell!)).toEqual({ spec: shell });

    const both = catalog('my/agent:2', [], 'python:3.12');
    const [chosen] = await both.list();
    expect(chosen).toMatchObject({ image: 'my/agent:2', command: null });
    expect(await both.ready(chosen!)).toEqual({ spec: chosen });

    const [plain] = await catalog(null).list();
    expect(await catalog(null).ready(plain!)).toEqual({ spec: plain });
  });

  it('says why the agent server spec cannot start on a base image, naming the base', async () => {
    const missing = catalog(null, [], 'missing:1');
    const [agentServer] = await missing.list();
    expect(await missing.ready(agentServer!)).toEqual({
      spec: { ...agentServer, image: 'missing:1' },
      problem: 'The base image missing:1 is not on the Docker engine',
    });
    const broken = catalog(null, [], 'broken:1');
    expect((await broken.ready((await broken.list())[0]!)).problem).toBe('Building on the base image broken:1 failed: engine hiccup');
  });

  it('lists the labelled images after the others; an id already used keeps its meaning', async () => {
    const labelled = [spec('tools:1', { image: 'tools:1', command: null }), spec('taken:1', { image: 'taken:1', command: null })];
    const specs = await catalog(null, labelled).list();
    expect(specs.map((s) => [s.id, s.image])).toEqual([
      [AGENT_SERVER_SPEC_ID, 'agent-console-sandbox:abc'],
      ['shell', 'agent-console-sandbox:abc'],
      ['python', 'python:3.12'],
      ['taken:1', 'declared:1'],
      ['tools:1', 'tools:1'],
    ]);
  });
});

describe('sandboxStatus', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  /** When it started, `ms` before now. */
  const before = (ms: number) => new Date(now - ms).toISOString();
  const base = {
    state: 'running',
    healthy: undefined,
    exitDetail: null,
    startedAt: before(0),
    now,
    startTimeoutMs: 30_000,
    image: null,
  } as const;
  it.each([
    ['paused', { ...base, state: 'paused' }, 'PAUSED'],
    ['responding', { ...base, healthy: true }, 'RUNNING'],
    ['not responding yet', { ...base, healthy: false, startedAt: before(5000) }, 'STARTING'],
    ['not responding after the timeout', { ...base, healthy: false, startedAt: before(31_000) }, 'ERROR'],
    ['not checked yet, long after its start (just after a server restart)', { ...base, startedAt: before(600_000) }, 'STARTING'],
    ['started but not recorded yet', { ...base, state: 'pending' }, 'STARTING'],
    ['gone after failing', { ...base, state: 'missing', exitDetail: 'The process exited with code 1' }, 'ERROR'],
    ['gone', { ...base, state: 'missing' }, 'MISSING'],
  ] as const)('%s → %s', (_name, observation, status) => {
    expect(sandboxStatus(observation).status).toBe(status);
  });

  it('names the image that was to run the agent server when it never responds', () => {
    const observation = { ...base, healthy: false, startedAt: before(31_000), image: 'my/agent:2' };
    expect(sandboxStatus(observation)).toEqual({
      status: 'ERROR',
      detail:
        'The image my/agent:2 did not start the agent server (no response on /alive for 30 s); its processes still run (Delete ends them)',
    });
    expect(sandboxStatus({ ...observation, image: null }).detail).toBe(
      'The agent server has not responded on /alive for 30 s; its processes still run (Delete ends them)',
    );
  });
});
