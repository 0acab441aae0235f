import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import { inject } from 'vitest';
import { createLogger } from '../logger';
import { DATA_DIR_LABEL } from '../sandboxes/docker-runtime';
import { checkEngine, dockerFromEnv } from '../sandboxes/docker/engine';
import { ensureDefaultImage } from '../sandboxes/docker/sandbox-image';

export type RuntimeName = 'process' | 'docker';

let engine: Promise<Docker | undefined> | undefined;

/** The local engine (DOCKER_HOST), or `undefined` when none answers. */
export function localEngine(): Promise<Docker | undefined> {
  engine ??= (async () => {
    try {
      const docker = dockerFromEnv(process.env.DOCKER_HOST);
      await checkEngine(docker);
      return docker;
    } catch {
      return undefined;
    }
  })();
  return engine;
}

let image: Promise<string> | undefined;

/** The default sandbox image, built once per test process when missing. */
export function defaultImage(docker: Docker): Promise<string> {
  image ??= ensureDefaultImage(docker, createLogger(false));
  return image;
}

/**
 * The runtimes sandbox tests run on: docker too with TEST_DOCKER=1 when an engine answered at the
 * start of the run (docker-global-setup.ts says so in one line when none did). With CI=1 it must have.
 */
export function runtimesUnderTest(file: string): RuntimeName[] {
  if (inject('dockerEngine')) return ['process', 'docker'];
  if (process.env.TEST_DOCKER && process.env.CI)
    throw new Error(`CI=1 but no Docker engine answers: the docker runtime's tests in ${file} must run`);
  return ['process'];
}

/** Removes every container and volume labelled with `dataDir`: what a test made, also when it failed. */
export async function removeDockerLeftovers(docker: Docker, dataDir: string): Promise<void> {
  const filters = JSON.stringify({ label: [`${DATA_DIR_LABEL}=${dataDir}`] });
  for (const container of await docker.listContainers({ all: true, filters })) {
    await docker.getContainer(container.Id).remove({ force: true });
  }
  for (const volume of (await docker.listVolumes({ filters })).Volumes ?? []) {
    await docker.getVolume(volume.Name).remove();
  }
}

/**
 * Where a test's stub on the host listens so the sandboxes of `runtime` reach it: loopback for
 * processes; for containers the bridge's gateway on the host, which they call `host.docker.internal`
 * (the server rewrites a `localhost` LLM URL to it).
 */
export async function hostAddressFor(runtime: RuntimeName): Promise<{ host: string; reachedAs: string }> {
  if (runtime === 'process') return { host: '127.0.0.1', reachedAs: '127.0.0.1' };
  const bridge = await (await localEngine())!.getNetwork('bridge').inspect();
  const gateway = (bridge as { IPAM?: { Config?: { Gateway?: string }[] } }).IPAM?.Config?.[0]?.Gateway;
  if (!gateway) throw new Error("The Docker engine's bridge network has no gateway address");
  // named as a user would, on localhost: the server rewrites it for containers
  return { host: gateway, reachedAs: 'localhost' };
}

/**
 * Builds an image `FROM` the default one with `lines` added to its Dockerfile (LABEL, CMD…),
 * through the Engine API as the default image is built; answers its tag. The test removes it.
 */
export async function buildTestImage(docker: Docker, name: string, lines: string[]): Promise<string> {
  const tag = `agent-console-test-${name}:${randomBytes(6).toString('hex')}`;
  const context = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-console-test-image-'));
  try {
    await fs.writeFile(path.join(context, 'Dockerfile'), [`FROM ${await defaultImage(docker)}`, ...lines, ''].join('\n'));
    const stream = await docker.buildImage({ context, src: ['Dockerfile'] }, { t: tag, rm: true, forcerm: true });
    const output = await new Promise<{ error?: string }[]>((resolve, reject) =>
      docker.modem.followProgress(stream, (error: Error | null, result: { error?: string }[]) => (error ? reject(error) : resolve(result))),
    );
    const failed = output.find((line) => line.error);
    if (failed) throw new Error(`Building ${tag} failed: ${failed.error}`);
    return tag;
  } finally {
    await fs.rm(context, { recursive: true, force: true });
  }
}
