import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type Docker from 'dockerode';
import type { Logger } from '../../logger';
import { AGENT_SERVER_SCRIPT } from '../specs';
import { firstExisting, sharedLibraries } from './host-files';

/*
 * The default sandbox image, built from files on this machine (no registry is reachable): the
 * host's node, bash (the agent's terminal runs `bash -c`), busybox for sh and the usual
 * commands, git with its https helper, each with the libraries `ldd` lists, the host's CA bundle,
 * and the agent server's build. Its tag is a hash of all of that, so any change gives a new image.
 */

export const IMAGE_REPOSITORY = 'agent-console-sandbox';
/** On the default images only, so older ones can be found and removed. */
export const DEFAULT_IMAGE_LABEL = 'agent-console.default-image';
/** The tag a default image was built as (images built `FROM` it inherit its labels, with this value). */
const IMAGE_TAG_LABEL = 'agent-console.image-tag';
/** Where the agent server listens inside a container. */
export const AGENT_SERVER_CONTAINER_PORT = 8000;
/** The ports a container's apps listen on (WORKER_1, WORKER_2: app previews), published as the agent server's is. */
export const WORKER_CONTAINER_PORTS = [8011, 8012];
/** The sandbox's home, a volume of its own. */
export const CONTAINER_HOME = '/workspace';
/** The uid sandbox processes run as inside the container. */
export const SANDBOX_UID = 1000;
/** The host's CA bundle, which sandboxes trust (the host may reach the internet through a proxy that signs with its own CA). */
export const CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';
/** Where the default image holds the agent server's build: its entry, and the files it loads at first use. */
export const AGENT_SERVER_DIR_IN_IMAGE = '/opt/agent-server';
/** Where it holds the agent server's entry, and node (its libraries are at the host's paths). */
export const AGENT_SERVER_IN_IMAGE = `${AGENT_SERVER_DIR_IN_IMAGE}/${path.basename(AGENT_SERVER_SCRIPT)}`;
export const NODE_IN_IMAGE = '/usr/bin/node';

/** The command the default image runs: its agent server. */
export const AGENT_SERVER_CONTAINER_COMMAND = [NODE_IN_IMAGE, AGENT_SERVER_IN_IMAGE];

/** A file of an image: a copy of one of this machine's, a text, a link or a directory, at `path` in the image. */
export type Entry =
  | { path: string; file: string; mode?: number }
  | { path: string; text: string }
  | { path: string; link: string }
  | { path: string; directory: true; mode: number };

const run = promisify(execFile);

const dockerfile = (tag: string) => `FROM scratch
COPY rootfs/ /
COPY --chown=${SANDBOX_UID}:${SANDBOX_UID} home/ ${CONTAINER_HOME}/
COPY --chown=${SANDBOX_UID}:${SANDBOX_UID} home/ /tmp/
ENV PATH=/usr/local/bin:/usr/bin:/bin HOME=${CONTAINER_HOME} TMPDIR=/tmp NODE_EXTRA_CA_CERTS=${CA_BUNDLE} GIT_SSL_CAINFO=${CA_BUNDLE} SSL_CERT_FILE=${CA_BUNDLE}
USER ${SANDBOX_UID}:${SANDBOX_UID}
WORKDIR ${CONTAINER_HOME}
EXPOSE ${AGENT_SERVER_CONTAINER_PORT}
LABEL ${DEFAULT_IMAGE_LABEL}=1 ${IMAGE_TAG_LABEL}=${tag}
CMD ${JSON.stringify(AGENT_SERVER_CONTAINER_COMMAND)}
`;

/** A binary at `inImage` from `host`, with every library it loads at the path `ldd` gives. */
async function binaryWithLibraries(host: string, inImage: string): Promise<Entry[]> {
  const libraries = await sharedLibraries(host);
  return [{ path: inImage, file: host, mode: 0o755 }, ...libraries.map((library) => ({ path: library, file: library, mode: 0o755 }))];
}

/** Every file of the agent server's build, at its place under AGENT_SERVER_DIR_IN_IMAGE. */
async function agentServerEntries(): Promise<Entry[]> {
  const built = path.dirname(AGENT_SERVER_SCRIPT);
  const files = (await fs.readdir(built, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
  return files.map((file) => {
    const relative = path.relative(built, path.join(file.parentPath, file.name));
    return { path: path.posix.join(AGENT_SERVER_DIR_IN_IMAGE, ...relative.split(path.sep)), file: path.join(built, relative) };
  });
}

/** Everything the image holds. */
export async function imageEntries(): Promise<Entry[]> {
  const busybox = firstExisting('static busybox (apt-get install busybox-static)', ['/bin/busybox', '/usr/bin/busybox']);
  if ((await sharedLibraries(busybox)).length > 0) throw new Error(`${busybox} is not the static busybox (apt-get install busybox-static)`);
  const git = firstExisting('git', ['/usr/bin/git']);
  const gitCore = path.dirname(firstExisting('git-remote-http', ['/usr/lib/git-core/git-remote-http']));
  const entries: Entry[] = [
    ...(await binaryWithLibraries(await fs.realpath(process.execPath), NODE_IN_IMAGE)),
    ...(await binaryWithLibraries(firstExisting('bash', ['/bin/bash', '/usr/bin/bash']), '/bin/bash')),
    ...(await binaryWithLibraries(git, '/usr/bin/git')),
    ...(await binaryWithLibraries(path.join(gitCore, 'git-remote-http'), '/usr/lib/git-core/git-remote-http')),
    { path: '/usr/lib/git-core/git-remote-https', link: 'git-remote-http' },
    { path: '/usr/lib/git-core/git', link: '/usr/bin/git' },
    { path: '/bin/busybox', file: busybox, mode: 0o755 },
    { path: CA_BUNDLE, file: firstExisting('CA bundle', [CA_BUNDLE]) },
    ...(await agentServerEntries()),
    {
      path: '/etc/passwd',
      text: `root:x:0:0:root:/root:/bin/sh\nsandbox:x:${SANDBOX_UID}:${SANDBOX_UID}:sandbox:${CONTAINER_HOME}:/bin/bash\n`,
    },
    { path: '/etc/group', text: `root:x:0:\nsandbox:x:${SANDBOX_UID}:\n` },
    // git warns on every clone without it
    { path: '/usr/share/git-core/templates', directory: true, mode: 0o755 },
  ];
  const taken = new Set(entries.map((entry) => entry.path));
  const { stdout } = await run(busybox, ['--list']);
  for (const applet of stdout.split('\n').filter(Boolean)) {
    const at = `/bin/${applet}`;
    if (!taken.has(at) && !taken.has(`/usr/bin/${applet}`)) entries.push({ path: at, link: 'busybox' });
  }
  // one entry per path (libraries are shared between binaries), in a fixed order for the hash
  const unique = new Map(entries.map((entry) => [entry.path, entry]));
  return [...unique.values()].sort((a, b) => a.path.localeCompare(b.path));
}

function fileHash(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('error', reject)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/** A hash of what an image is built from: its Dockerfile (`recipe`) and every entry's path, mode and content. */
export async function entriesHash(entries: Entry[], recipe: string): Promise<string> {
  const hash = createHash('sha256').update(recipe);
  for (const entry of entries) {
    const content =
      'file' in entry ? await fileHash(entry.file) : 'text' in entry ? entry.text : 'link' in entry ? `-> ${entry.link}` : 'dir';
    hash.update(`${entry.path}\0${'mode' in entry ? entry.mode : ''}\0${content}\n`);
  }
  return hash.digest('hex');
}

/** `agent-console-sandbox:<hash of every input>`. */
export async function defaultImageTag(entries: Entry[]): Promise<string> {
  return `${IMAGE_REPOSITORY}:${(await entriesHash(entries, dockerfile(''))).slice(0, 16)}`;
}

/**
 * The build context: `rootfs/`, an empty `home/` and the Dockerfile, in a new temp dir. The
 * sandbox's home and /tmp come from `home/` so they belong to its uid (its only user).
 */
async function stage(entries: Entry[], recipe: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-console-image-'));
  const root = path.join(dir, 'rootfs');
  await fs.mkdir(root);
  await fs.mkdir(path.join(dir, 'home'));
  for (const entry of entries) {
    const target = path.join(root, entry.path);
    await fs.mkdir(path.dirname(target), { recursive: true });
    if ('file' in entry) {
      await fs.copyFile(entry.file, target);
      await fs.chmod(target, entry.mode ?? 0o644);
    } else if ('text' in entry) await fs.writeFile(target, entry.text, { mode: 0o644 });
    else if ('link' in entry) await fs.symlink(entry.link, target);
    else {
      await fs.mkdir(target, { recursive: true });
      await fs.chmod(target, entry.mode);
    }
  }
  await fs.writeFile(path.join(dir, 'Dockerfile'), recipe);
  return dir;
}

/** A build the engine refused: its error, and what its steps wrote (a RUN step's output is there). */
export class ImageBuildFailed extends Error {
  constructor(
    readonly tag: string,
    readonly engineError: string,
    readonly output: string,
  ) {
    super(`Building ${tag} failed: ${engineError}`);
  }
}

/**
 * Builds `tag` from `entries` (in `rootfs/`) and the Dockerfile `recipe` through the Engine API
 * (the legacy builder: no BuildKit, no registry).
 */
export async function buildImage(docker: Docker, entries: Entry[], tag: string, recipe: string): Promise<void> {
  const context = await stage(entries, recipe);
  try {
    // No network for a step: one runs a base image's own shell (Settings' base image).
    const stream = await docker.buildImage(
      { context, src: ['Dockerfile', 'rootfs', 'home'] },
      { t: tag, rm: true, forcerm: true, networkmode: 'none' },
    );
    const output = await new Promise<{ error?: string; stream?: string }[]>((resolve, reject) =>
      docker.modem.followProgress(stream, (error: Error | null, result: { error?: string }[]) => (error ? reject(error) : resolve(result))),
    );
    const failed = output.find((line) => line.error);
    if (failed) throw new ImageBuildFailed(tag, failed.error!, output.map((line) => line.stream ?? '').join(''));
  } finally {
    await fs.rm(context, { recursive: true, force: true });
  }
}

const statusCode = (error: unknown) => (error as { statusCode?: number }).statusCode;

/**
 * Removes default images other than `keep`; one a container still uses stays. An image someone
 * built `FROM` a default one (a spec image) carries its labels too, but not under the tag they
 * name: it stays. So does an untagged one: a step of such a build under way, whose removal would
 * fail the build's next step.
 */
async function removeOlder(docker: Docker, keep: string, log: Logger): Promise<void> {
  const images = await docker.listImages({ filters: JSON.stringify({ label: [`${DEFAULT_IMAGE_LABEL}=1`] }) });
  for (const image of images) {
    const tags = (image.RepoTags ?? []).filter((tag) => tag !== '<none>:<none>');
    const builtAs = image.Labels[IMAGE_TAG_LABEL];
    // Images built before the tag was labelled are known by their tag alone.
    const olderDefault = builtAs === undefined ? tags.length > 0 : tags.includes(builtAs);
    if (tags.includes(keep) || !olderDefault) continue;
    try {
      await docker.getImage(image.Id).remove();
      log.info({ image: image.RepoTags ?? image.Id }, 'removed an older default sandbox image');
    } catch (error) {
      // Clearing up is no reason not to start: in use (409), or gone meanwhile because another
      // server on this engine removed it first (404, or a 500 "unrecognized image ID"), it stays or is gone.
      if (statusCode(error) === 409)
        log.info({ image: image.RepoTags ?? image.Id }, 'an older default sandbox image is still in use; it stays');
      else log.warn({ image: image.RepoTags ?? image.Id, err: error }, 'an older default sandbox image could not be removed');
    }
  }
}

/** The default image's tag, built first when the engine lacks it; older default images go. */
export async function ensureDefaultImage(docker: Docker, log: Logger): Promise<string> {
  try {
    await fs.access(AGENT_SERVER_SCRIPT);
  } catch {
    throw new Error(`The agent server is not built (${AGENT_SERVER_SCRIPT}); run npm run build:agent`);
  }
  const entries = await imageEntries();
  const tag = await defaultImageTag(entries);
  try {
    await docker.getImage(tag).inspect();
  } catch (error) {
    if (statusCode(error) !== 404) throw error;
    log.info({ image: tag }, 'building the default sandbox image');
    await buildImage(docker, entries, tag, dockerfile(tag));
    log.info({ image: tag }, 'built the default sandbox image');
  }
  await removeOlder(docker, tag, log);
  return tag;
}
