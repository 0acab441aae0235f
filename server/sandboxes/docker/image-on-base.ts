import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Duplex, finished } from 'node:stream';
import { setTimeout } from 'node:timers/promises';
import type Docker from 'dockerode';
import type { Logger } from '../../logger';
import { statusCode } from './engine-errors';
import { sharedLibraries } from './host-files';
import {
  AGENT_SERVER_CONTAINER_PORT,
  AGENT_SERVER_DIR_IN_IMAGE,
  AGENT_SERVER_IN_IMAGE,
  buildImage,
  CA_BUNDLE,
  CONTAINER_HOME,
  ImageBuildFailed,
  NODE_IN_IMAGE,
  SANDBOX_UID,
} from './sandbox-image';

/*
 * Settings' sandbox base image on the Docker runtime. As OpenHands builds its runtime image on a
 * base image, the agent server's image is built on it here: the base's files, with our agent
 * server added under /opt/agent-console, run by a node of its own with the libraries it loads and
 * their loader (so the base's C library, or lack of one, does not matter to it). Those files are
 * copied from the default image, which holds them already: the build sends the engine no files.
 * Nothing is installed: the base must already have what the agent's terminal and the workspace
 * steps run, which a container of the base checks before anything is built. One image per base
 * image id and default image, built when a sandbox first needs it; images are never pulled.
 */

const ON_BASE_REPOSITORY = 'agent-console-sandbox-on-base';
/** On each image built on a base: the base's image id (older builds on the same base are removed). */
export const BUILT_ON_LABEL = 'agent-console.built-on';
/** And the base as Settings named it. */
export const BASE_IMAGE_LABEL = 'agent-console.base-image';

const HOME = '/opt/agent-console';
const NODE = `${HOME}/bin/node`;
const LIBRARIES = `${HOME}/lib`;
const AGENT_SERVER_DIR = `${HOME}/agent-server`;
const AGENT_SERVER = `${AGENT_SERVER_DIR}/${path.posix.basename(AGENT_SERVER_IN_IMAGE)}`;
const CERTIFICATES = `${HOME}/ca-certificates.crt`;

/**
 * What the agent's terminal, the workspace steps (clone, setup script, hooks, downloads) and
 * ending a command that ran too long run, besides `/bin/sh`: the base must have each on its PATH.
 */
const COMMANDS_THE_BASE_NEEDS = ['sh', 'bash', 'git', 'tar', 'mkdir', 'cp', 'chmod', 'basename', 'grep', 'tr'];

/** What a base image must be, in words. */
export const BASE_NEEDS = `a Linux image for this machine's architecture with /bin/sh and ${COMMANDS_THE_BASE_NEEDS.slice(1).join(', ')} on its PATH`;

const MISSING = 'agent-console: missing:';
const NODE_FAILED = 'agent-console: the agent server cannot run here:';
/** How long after the check's end its output may still come in. */
const OUTPUT_GRACE_MS = 1000;
/** Enough for a shell's `command -v`. */
const CHECK_MEMORY_BYTES = 64 * 1024 * 1024;

/** Docker's names for the architectures node runs on. */
const ENGINE_ARCHITECTURES: Partial<Record<NodeJS.Architecture, string>> = {
  x64: 'amd64',
  arm64: 'arm64',
  arm: 'arm',
  s390x: 's390x',
  ppc64: 'ppc64le',
};

/** Why a base image cannot be used, in words for the sandbox's status. */
export class BaseImageUnusable extends Error {}

/** A build of the agent server's image on a base image, as it ended: the image, or why it failed. */
export interface BaseImageBuild {
  base: string;
  image: string;
  failure?: string;
}

/** Told of a build that ran for the start that asked for it (one that waited for another's build is not). */
export type OnBaseImageBuild = (build: BaseImageBuild) => Promise<void>;

/** The command that runs `script` with our node: through our loader, with our libraries only (the paths node was linked with are the base's). */
function nodeCommand(libraries: string[]): (script: string) => string[] {
  const loader = libraries.find((library) => path.basename(library).startsWith('ld-'));
  return (script) => (loader ? [`${LIBRARIES}/${path.basename(loader)}`, '--library-path', LIBRARIES, NODE, script] : [NODE, script]);
}

/** The script that checks, as root in the base, that it has what the agent server needs. */
const checkCommands = [
  'missing=',
  `for c in ${COMMANDS_THE_BASE_NEEDS.join(' ')}; do command -v "$c" >/dev/null 2>&1 || missing="$missing $c"; done`,
  `if [ -n "$missing" ]; then echo "${MISSING}$missing"; exit 3; fi`,
].join('\n');

/** The script that checks our node runs there, then makes the sandbox's user (a name for its uid, unless the base has one) and home. */
function prepare(nodeCheck: string[]): string {
  const quoted = nodeCheck.map((part) => `'${part}'`).join(' ');
  return [
    `out=$(${quoted} 2>&1) || { echo "${NODE_FAILED} $out"; exit 4; }`,
    `grep -q '^[^:]*:[^:]*:${SANDBOX_UID}:' /etc/passwd 2>/dev/null || echo 'sandbox:x:${SANDBOX_UID}:${SANDBOX_UID}:sandbox:${CONTAINER_HOME}:/bin/sh' >> /etc/passwd`,
    `grep -q '^[^:]*:[^:]*:${SANDBOX_UID}:' /etc/group 2>/dev/null || echo 'sandbox:x:${SANDBOX_UID}:' >> /etc/group`,
    `mkdir -p ${CONTAINER_HOME} /tmp && chown ${SANDBOX_UID}:${SANDBOX_UID} ${CONTAINER_HOME} && chmod 1777 /tmp`,
  ].join('\n');
}

/**
 * The Dockerfile of the image on base image `baseId`: node, its libraries, the agent server and
 * the CA bundle from `ours` (the default image, where they sit at the host's paths). Root by
 * number: a base may have no /etc/passwd.
 */
function recipe(baseId: string, base: string, ours: string, libraries: string[]): string {
  const command = nodeCommand(libraries);
  const nodeCheck = [...command(AGENT_SERVER).slice(0, -1), '-e', ''];
  const copy = (from: string[], to: string) => `COPY --from=ours ${JSON.stringify([...from, to])}`;
  return `FROM ${ours} AS ours
FROM ${baseId}
USER 0:0
${copy([`${AGENT_SERVER_DIR_IN_IMAGE}/`], `${AGENT_SERVER_DIR}/`)}
${copy([NODE_IN_IMAGE], NODE)}
${libraries.length > 0 ? copy(libraries, `${LIBRARIES}/`) : ''}
${copy([CA_BUNDLE], CERTIFICATES)}
RUN ${JSON.stringify(['/bin/sh', '-c', prepare(nodeCheck)])}
ENV HOME=${CONTAINER_HOME} NODE_EXTRA_CA_CERTS=${CERTIFICATES} GIT_SSL_CAINFO=${CERTIFICATES} SSL_CERT_FILE=${CERTIFICATES}
USER ${SANDBOX_UID}:${SANDBOX_UID}
WORKDIR ${CONTAINER_HOME}
EXPOSE ${AGENT_SERVER_CONTAINER_PORT}
HEALTHCHECK NONE
LABEL ${BUILT_ON_LABEL}=${JSON.stringify(baseId)} ${BASE_IMAGE_LABEL}=${JSON.stringify(base)}
ENTRYPOINT []
CMD ${JSON.stringify(command(AGENT_SERVER))}
`;
}

/** The build's refusal in words a person can act on. */
function whyNot(base: string, failure: ImageBuildFailed): string {
  // What the node check printed, on a line of its own (the step's own line, also in the output, quotes the script).
  const node = new RegExp(`^${NODE_FAILED}(.*)$`, 'm').exec(failure.output)?.[1]?.trim();
  if (node !== undefined) return `The agent server cannot run on the base image ${base} (${node}): it must be ${BASE_NEEDS}`;
  return `Building on the base image ${base} failed: ${failure.engineError.trim()}`;
}

/** Builds and finds the agent server's images on base images (see above). */
export class ImagesOnBase {
  #libraries: Promise<string[]> | undefined;
  /** Builds under way, by tag: starts that need the same image at once wait for one build. */
  readonly #building = new Map<string, Promise<string>>();

  /** `ours`: the default image, whose node, libraries, agent server and CA bundle the images on bases copy. */
  constructor(
    private readonly docker: Docker,
    private readonly ours: string,
    private readonly log: Logger,
  ) {}

  /** The libraries this machine's node loads, as the default image holds them: asked of `ldd` once. */
  #nodeLibraries(): Promise<string[]> {
    this.#libraries ??= fs.realpath(process.execPath).then(sharedLibraries);
    this.#libraries.catch(() => (this.#libraries = undefined));
    return this.#libraries;
  }

  /** The base's image id, when it is on the engine and for this machine; else why not. */
  async #base(base: string): Promise<string> {
    let info: Docker.ImageInspectInfo;
    try {
      info = await this.docker.getImage(base).inspect();
    } catch (error) {
      if (statusCode(error) === 404)
        throw new BaseImageUnusable(`The base image ${base} is not on the Docker engine (images are never pulled: build or load it there)`);
      throw error;
    }
    const architecture = ENGINE_ARCHITECTURES[process.arch] ?? process.arch;
    if (info.Os !== 'linux' || info.Architecture !== architecture)
      throw new BaseImageUnusable(`The base image ${base} is for ${info.Os}/${info.Architecture}; this machine runs linux/${architecture}`);
    return info.Id;
  }

  /**
   * The image the agent server runs in on base image `base` (as Settings name it), built first
   * when the engine lacks it (`onBuild` is told how that went); `BaseImageUnusable` says why it cannot be.
   */
  async imageOn(base: string, onBuild?: OnBaseImageBuild): Promise<string> {
    const baseId = await this.#base(base);
    // The default image's tag is a hash of what it holds, so the recipe names everything the image is made of.
    const built = recipe(baseId, base, this.ours, await this.#nodeLibraries());
    const tag = `${ON_BASE_REPOSITORY}:${createHash('sha256').update(built).digest('hex').slice(0, 16)}`;
    let building = this.#building.get(tag);
    if (!building) {
      building = this.#ensure(tag, base, baseId, built, onBuild).finally(() => this.#building.delete(tag));
      this.#building.set(tag, building);
    }
    return building;
  }

  async #ensure(tag: string, base: string, baseId: string, built: string, onBuild?: OnBaseImageBuild): Promise<string> {
    try {
      await this.docker.getImage(tag).inspect();
      return tag;
    } catch (error) {
      if (statusCode(error) !== 404) throw error;
    }
    this.log.info({ image: tag, base }, 'building the sandbox image on the base image Settings name');
    try {
      await this.#check(base, baseId);
      await buildImage(this.docker, [], tag, built);
    } catch (error) {
      const unusable =
        error instanceof ImageBuildFailed
          ? new BaseImageUnusable(whyNot(base, error))
          : error instanceof BaseImageUnusable
            ? error
            : undefined;
      if (error instanceof ImageBuildFailed) await this.#removeSteps(error.output, baseId);
      await onBuild?.({ base, image: tag, failure: unusable?.message ?? (error instanceof Error ? error.message : String(error)) });
      throw unusable ?? error;
    }
    this.log.info({ image: tag, base }, 'built the sandbox image on the base image');
    await onBuild?.({ base, image: tag });
    await this.#removeOlder(baseId, tag);
    return tag;
  }

  /**
   * Whether the base has what the agent server needs, asked of a container of it (as root, with
   * no capabilities and no network) in a moment, before a build that copies our files into it.
   */
  async #check(base: string, baseId: string): Promise<void> {
    const container = await this.docker.createContainer({
      Image: baseId,
      Entrypoint: ['/bin/sh', '-c', checkCommands],
      Cmd: [],
      User: '0:0',
      Tty: true,
      NetworkDisabled: true,
      HostConfig: {
        NetworkMode: 'none',
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        Memory: CHECK_MEMORY_BYTES,
        MemorySwap: CHECK_MEMORY_BYTES,
        PidsLimit: 64,
      },
    });
    try {
      const output = (await container.attach({ stream: true, stdout: true, stderr: true })) as Duplex;
      const ended = new Promise<void>((resolve) => finished(output, () => resolve()));
      let said = '';
      output.on('data', (chunk: Buffer) => (said += chunk.toString()));
      try {
        await container.start();
      } catch (error) {
        // The engine cannot start a container whose command is missing.
        if (/\/bin\/sh/.test(String((error as Error).message)))
          throw new BaseImageUnusable(`The base image ${base} has no /bin/sh: it must be ${BASE_NEEDS}`);
        throw error;
      }
      const { StatusCode } = (await container.wait()) as { StatusCode: number };
      // Its output is read to the end (the engine ends the stream once the container has).
      await Promise.race([ended, setTimeout(OUTPUT_GRACE_MS)]);
      output.destroy();
      const missing = new RegExp(`^${MISSING}(.*)$`, 'm').exec(said)?.[1]?.trim();
      if (missing) throw new BaseImageUnusable(`The base image ${base} lacks ${missing.split(/\s+/).join(', ')}: it must be ${BASE_NEEDS}`);
      if (StatusCode !== 0)
        throw new BaseImageUnusable(`The base image ${base} could not run its shell (exit status ${StatusCode}): it must be ${BASE_NEEDS}`);
    } finally {
      await container.remove({ force: true }).catch(() => undefined);
    }
  }

  /**
   * The steps a failed build committed (` ---> <id>` in its output), which nothing tags: removing
   * the last removes the others with it, down to the base, which stays.
   */
  async #removeSteps(output: string, baseId: string): Promise<void> {
    const steps = [...output.matchAll(/---> ([0-9a-f]{12})\b/g)].map((match) => match[1]!);
    const last = steps.at(-1);
    if (!last || baseId.replace(/^sha256:/, '').startsWith(last)) return;
    await this.docker
      .getImage(last)
      .remove()
      .catch((error: unknown) => this.log.info({ image: last, err: error }, 'could not remove what a failed build left'));
  }

  /** Images built on the same base before (for another agent server); one a container still uses stays. */
  async #removeOlder(baseId: string, keep: string): Promise<void> {
    const images = await this.docker.listImages({ filters: JSON.stringify({ label: [`${BUILT_ON_LABEL}=${baseId}`] }) });
    for (const image of images) {
      if ((image.RepoTags ?? []).includes(keep)) continue;
      await this.docker
        .getImage(image.Id)
        .remove()
        .catch((error: unknown) =>
          this.log.info({ image: image.RepoTags ?? image.Id, err: error }, 'an older image on a base image stays'),
        );
    }
  }
}
