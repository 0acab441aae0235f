import type { SandboxSpec } from '../../../src/contract/sandboxes';
import type { SpecCatalog } from '../spec-catalog';
import { AGENT_SERVER_SPEC_ID } from '../specs';
import { AGENT_SERVER_CONTAINER_COMMAND } from './sandbox-image';

export interface ContainerSpecSources {
  /** The built-in and declared specs (SANDBOX_SPECS_FILE), read at start. */
  declared: SandboxSpec[];
  /** The image the agent server spec and specs without an image of their own run in. */
  defaultImage: string;
  /** Settings' sandbox_runtime_container_image, read on use: `null` when not set. */
  settingsImage: () => Promise<string | null>;
  /** The engine's labelled images as specs (`LabelledImageSpecs`). */
  labelled: SpecCatalog;
}

/**
 * The specs as containers run them: the agent server spec runs the default image's own agent
 * server (not this machine's path to it), or the Settings image with its own command when one is
 * set; declared specs run in their image or the default one; then the labelled images, each a
 * spec (an id the others already use keeps its first meaning).
 */
export class ContainerSpecCatalog implements SpecCatalog {
  constructor(private readonly sources: ContainerSpecSources) {}

  async list(): Promise<SandboxSpec[]> {
    const { declared, defaultImage, settingsImage, labelled } = this.sources;
    const [chosen, images] = await Promise.all([settingsImage(), labelled.list()]);
    const specs = declared.map((spec): SandboxSpec => {
      if (spec.id !== AGENT_SERVER_SPEC_ID) return { ...spec, image: spec.image ?? defaultImage };
      return chosen ? { ...spec, command: null, image: chosen } : { ...spec, command: AGENT_SERVER_CONTAINER_COMMAND, image: defaultImage };
    });
    const taken = new Set(specs.map((spec) => spec.id));
    return [...specs, ...images.filter((spec) => !taken.has(spec.id))];
  }
}
