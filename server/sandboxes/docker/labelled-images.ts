import type Docker from 'dockerode';
import type { SandboxSpec } from '../../../src/contract/sandboxes';
import type { Logger } from '../../logger';
import type { SpecCatalog } from '../spec-catalog';

/** An image with this label (value `1`) is a sandbox spec of its own. */
export const SPEC_IMAGE_LABEL = 'agent-console.spec';

/**
 * How long a read of the engine's labelled images is used again. Images are labelled (built,
 * loaded, tagged) while the server runs, so they are read on use rather than once at start; the
 * console polls the spec list and every start looks its spec up, so a short cache keeps that to
 * one cheap call on the local socket every few seconds.
 */
const FRESH_MS = 5000;

/**
 * A labelled image as a spec, as OpenHands' Docker specs are: its first tag is the id and names
 * the image; it runs the image's own command, in the sandbox's home (the image's environment
 * applies in the container). One without a tag has no name to start it by and is left out.
 */
function imageSpec(image: Docker.ImageInfo): SandboxSpec | undefined {
  const tag = image.RepoTags?.find((name) => name !== '<none>:<none>');
  if (!tag) return undefined;
  return { id: tag, command: null, created_at: new Date(image.Created * 1000).toISOString(), initial_env: {}, working_dir: '', image: tag };
}

/** The engine's images labelled `agent-console.spec=1`, as specs, read again after `FRESH_MS`. */
export class LabelledImageSpecs implements SpecCatalog {
  #read: { at: number; specs: Promise<SandboxSpec[]> } | undefined;

  constructor(
    private readonly docker: Docker,
    private readonly log: Logger,
  ) {}

  list(): Promise<SandboxSpec[]> {
    if (!this.#read || Date.now() - this.#read.at > FRESH_MS) this.#read = { at: Date.now(), specs: this.#fromEngine() };
    return this.#read.specs;
  }

  async #fromEngine(): Promise<SandboxSpec[]> {
    try {
      const images = await this.docker.listImages({ filters: JSON.stringify({ label: [`${SPEC_IMAGE_LABEL}=1`] }) });
      return images
        .map(imageSpec)
        .filter((spec) => spec !== undefined)
        .sort((a, b) => a.id.localeCompare(b.id));
    } catch (error) {
      // The other specs stay usable; the next read asks again.
      this.#read = undefined;
      this.log.warn({ err: error }, 'could not list the labelled sandbox images');
      return [];
    }
  }
}
