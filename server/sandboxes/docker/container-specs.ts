import type { SandboxSpec } from '../../../src/contract/sandboxes';
import type { Logger } from '../../logger';
import type { SpecCatalog } from '../spec-catalog';
import { AGENT_SERVER_SPEC_ID } from '../specs';
import { BaseImageUnusable, type ImagesOnBase, type OnBaseImageBuild } from './image-on-base';
import { AGENT_SERVER_CONTAINER_COMMAND } from './sandbox-image';

/** Settings' sandbox images, read on use: `null` when not set. */
export interface SettingsImages {
  /** `sandbox_runtime_container_image`: an image that runs our agent server itself. */
  runtime: string | null;
  /** `sandbox_base_container_image`: an image to build the agent server's image on. */
  base: string | null;
}

export interface ContainerSpecSources {
  /** The built-in and declared specs (SANDBOX_SPECS_FILE), read at start. */
  declared: SandboxSpec[];
  /** The image the agent server spec and specs without an image of their own run in. */
  defaultImage: string;
  /** Settings' images, read on use. */
  settingsImages: () => Promise<SettingsImages>;
  /** The engine's labelled images as specs (`LabelledImageSpecs`). */
  labelled: SpecCatalog;
  /** Builds the agent server's image on a base image. */
  onBase: Pick<ImagesOnBase, 'imageOn'>;
  log: Logger;
}

/**
 * The specs as containers run them: the agent server spec runs the default image's own agent
 * server (not this machine's path to it); or, when Settings name one, the runtime image with its
 * own command, or else the image built on the base image (listed as the base; built when a start
 * needs it). Declared specs run in their image or the default one; then the labelled images, each
 * a spec (an id the others already use keeps its first meaning).
 */
export class ContainerSpecCatalog implements SpecCatalog {
  constructor(private readonly sources: ContainerSpecSources) {}

  async list(): Promise<SandboxSpec[]> {
    const { declared, defaultImage, settingsImages, labelled } = this.sources;
    const [chosen, images] = await Promise.all([settingsImages(), labelled.list()]);
    const specs = declared.map((spec): SandboxSpec => {
      if (spec.id !== AGENT_SERVER_SPEC_ID) return { ...spec, image: spec.image ?? defaultImage };
      const image = chosen.runtime ?? chosen.base;
      return image ? { ...spec, command: null, image } : { ...spec, command: AGENT_SERVER_CONTAINER_COMMAND, image: defaultImage };
    });
    const taken = new Set(specs.map((spec) => spec.id));
    return [...specs, ...images.filter((spec) => !taken.has(spec.id))];
  }

  /** The agent server spec on a base image runs the image built on it, which is built first when missing (`onBuild` told). */
  async ready(spec: SandboxSpec, onBuild?: OnBaseImageBuild): Promise<{ spec: SandboxSpec; problem?: string }> {
    if (spec.id !== AGENT_SERVER_SPEC_ID) return { spec };
    const { runtime, base } = await this.sources.settingsImages();
    if (runtime || !base) return { spec };
    try {
      return { spec: { ...spec, command: null, image: await this.sources.onBase.imageOn(base, onBuild) } };
    } catch (error) {
      if (error instanceof BaseImageUnusable) return { spec: { ...spec, command: null, image: base }, problem: error.message };
      this.sources.log.warn({ err: error, base }, 'could not build the sandbox image on the base image');
      return {
        spec: { ...spec, command: null, image: base },
        problem: `Building on the base image ${base} failed: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }
}
