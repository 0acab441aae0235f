import { finished, PassThrough, type Duplex } from 'node:stream';
import { setTimeout } from 'node:timers/promises';
import type Docker from 'dockerode';
import type { Exit } from '../../processes/exit';
import type { Logger } from '../../logger';
import type { ContainerLimits } from '../docker-runtime';
import type { ThrowawayCommand, ThrowawayProcess } from '../runtime';
import { hardenedHostConfig } from './hardened-host-config';
import type { LimitedSandboxNetwork } from './network-limits';

/** On every throwaway container, beside the data dir's label. */
export const THROWAWAY_LABEL = 'agent-console.throwaway';

export interface ContainerThrowawayOptions {
  docker: Docker;
  /** The sandbox image: what the agent's own commands run in. */
  image: string;
  limits: ContainerLimits;
  /** On every container it makes, so the server finds what a killed run left. */
  labels: Record<string, string>;
  /** The sandboxes' network, which its containers are on. */
  network: LimitedSandboxNetwork;
  log: Logger;
}

/** How long after a container's end its output may still come in. */
const OUTPUT_GRACE_MS = 500;

/** How a container ended that was removed while it ran. */
const REMOVED: Exit = { code: null, signal: 'SIGKILL' };

/**
 * Throwaway sandboxes of the Docker runtime: a container of the sandbox image with a sandbox's
 * limits and network, none of the server's files, environment, groups or engine socket; `end()`
 * removes it with everything that ran in it.
 */
export class ContainerThrowaways {
  constructor(private readonly options: ContainerThrowawayOptions) {}

  async start({ command, args, env }: ThrowawayCommand): Promise<ThrowawayProcess> {
    const { docker, image, limits, labels, network } = this.options;
    await network.ready();
    const container = await docker.createContainer({
      Image: image,
      Cmd: [command, ...args],
      Env: Object.entries(env).map(([name, value]) => `${name}=${value}`),
      Labels: labels,
      OpenStdin: true,
      StdinOnce: true,
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
      HostConfig: hardenedHostConfig(limits),
    });
    let stream: Duplex | undefined;
    let ending: Promise<void> | undefined;
    const end = () =>
      (ending ??= (async () => {
        stream?.destroy();
        await container.remove({ force: true }).catch(() => undefined);
      })());
    try {
      stream = (await container.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true })) as Duplex;
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      docker.modem.demuxStream(stream, stdout, stderr);
      const attached = stream;
      // Its errors reach the transport once it listens (on stdin); until then, and after the end, they are nobody's.
      attached.on('error', () => undefined);
      const outputEnded = new Promise<void>((resolve) => finished(attached, () => resolve()));
      await container.start();
      const exited = container.wait().then(
        async ({ StatusCode }: { StatusCode: number }): Promise<Exit> => {
          // What it wrote last is read before its end is told: the attached stream ends after the
          // container's output (or soon after its end, should the engine keep it open).
          await Promise.race([outputEnded, setTimeout(OUTPUT_GRACE_MS)]);
          // Nothing more is taken in: output the engine sends later would be written after the end.
          attached.destroy();
          stdout.end();
          stderr.end();
          return { code: StatusCode, signal: null };
        },
        () => REMOVED,
      );
      return { stdin: attached, stdout, stderr, exited, end };
    } catch (error) {
      await end();
      throw error;
    }
  }

  /** Removes the containers an earlier run on this data dir left (a killed server's); returns how many. */
  async endLeftovers(): Promise<number> {
    const { docker, labels, log } = this.options;
    const label = Object.entries(labels).map(([name, value]) => `${name}=${value}`);
    const found = await docker.listContainers({ all: true, filters: JSON.stringify({ label }) });
    for (const { Id } of found) {
      await docker
        .getContainer(Id)
        .remove({ force: true })
        .catch((error: unknown) =>
          log.warn({ container: Id, err: error }, 'could not remove a throwaway container an earlier run left behind'),
        );
    }
    return found.length;
  }
}
