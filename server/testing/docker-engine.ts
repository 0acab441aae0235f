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

/** The local engine (DOCKER_HOST), or `undefined` when none responds. */
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

/** The default sandbox image, which docker-global-setup.ts built for the run when missing. */
export function defaultImage(docker: Docker): Promise<string> {
  image ??= ensureDefaultImage(docker, createLogger(false));
  return image;
}

/**
 * The runtimes sandbox tests run on: docker too with TEST_DOCKER=1 when an engine responded at the
 * start of the run (docker-global-setup.ts says so in one line when none did). With CI=1 it must have.
 */
export function runtimesUnderTest(file: string): RuntimeName[] {
  if (inject('dockerEngine')) return ['process', 'docker'];
  if (process.env.TEST_DOCKER && process.env.CI)
    throw new Error(`CI=1 but no Docker engine responds: the docker runtime's tests in ${file} must run`);
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

/** The part of the `GET /networks/bridge` response that gives the host's address on it. */
export interface BridgeNetwork {
  IPAM?: { Config?: { Subnet?: string; Gateway?: string }[] | null } | null;
  Options?: Record<string, string> | null;
}

const isIpv4 = (address: string | undefined): address is string => address !== undefined && /^\d+\.\d+\.\d+\.\d+(\/\d+)?$/.test(address);

/**
 * The host's address on the engine's bridge network: its IPAM gateway; when the engine reports
 * none (some do, with only a subnet), the address of the bridge's interface on the host
 * (`com.docker.network.bridge.name`, docker0 by default); else the subnet's first host, which
 * the engine gives the bridge.
 */
export function hostAddressOnBridge(bridge: BridgeNetwork, interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]>): string {
  const configs = (bridge.IPAM?.Config ?? []).filter((config) => isIpv4(config.Subnet) || isIpv4(config.Gateway));
  const gateway = configs.map((config) => config.Gateway).find(isIpv4);
  if (gateway) return gateway;
  const name = bridge.Options?.['com.docker.network.bridge.name'] ?? 'docker0';
  const onInterface = interfaces[name]?.find((info) => info.family === 'IPv4')?.address;
  if (onInterface) return onInterface;
  const subnet = configs.map((config) => config.Subnet).find(isIpv4);
  if (!subnet) throw new Error(`The Docker engine's bridge network has no IPv4 gateway or subnet, and the host no interface ${name}`);
  const [network = '', bits = '32'] = subnet.split('/');
  const value = network.split('.').reduce((sum, octet) => sum * 256 + Number(octet), 0);
  const first = value - (value % 2 ** (32 - Number(bits))) + 1;
  return [24, 16, 8, 0].map((shift) => Math.floor(first / 2 ** shift) % 256).join('.');
}

/**
 * Where a test's stub on the host listens so the sandboxes of `runtime` reach it: loopback for
 * processes; for containers the host's address on the bridge, which they call `host.docker.internal`
 * (the server rewrites a `localhost` LLM URL to it).
 */
export async function hostAddressFor(runtime: RuntimeName): Promise<{ host: string; reachedAs: string }> {
  if (runtime === 'process') return { host: '127.0.0.1', reachedAs: '127.0.0.1' };
  const bridge = (await (await localEngine())!.getNetwork('bridge').inspect()) as BridgeNetwork;
  // named as a user would, on localhost: the server rewrites it for containers
  return { host: hostAddressOnBridge(bridge, os.networkInterfaces()), reachedAs: 'localhost' };
}

/**
 * Builds an image `FROM` the default one with `lines` added to its Dockerfile (LABEL, CMD…),
 * through the Engine API as the default image is built; returns its tag. The test removes it.
 */
export async function buildTestImage(docker: Docker, name: string, lines: string[]): Promise<string> {
  const tag = `agent-console-test-${name}:${randomBytes(6).toString('hex')}`;
  const context = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-console-test-image-'));
  try {
    await fs.writeFile(path.join(context, 'Dockerfile'), [`FROM ${await defaultImage(docker)}`, ...lines, ''].join('\n'));
    // No build cache: a test removes its image when done, and a cached step of one removed meanwhile fails the next build.
    const stream = await docker.buildImage({ context, src: ['Dockerfile'] }, { t: tag, rm: true, forcerm: true, nocache: true });
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
