import type { SandboxSpec } from '../../src/contract/sandboxes';
import type { OnBaseImageBuild } from './docker/image-on-base';

/**
 * The specs sandboxes start from, the default first. Process sandboxes have a fixed list; on
 * Docker it also follows the engine's labelled images and the Settings image (see
 * `ContainerSpecCatalog`), so it is read on each use.
 */
export interface SpecCatalog {
  list(): Promise<SandboxSpec[]>;
  /**
   * What a start of `spec` runs, made ready first (on Docker, the agent server's image built on
   * Settings' base image), or why it cannot start (`problem`, with the spec as listed). Absent:
   * every spec is ready as listed. `onBuild` is told of an image this start built.
   */
  ready?(spec: SandboxSpec, onBuild?: OnBaseImageBuild): Promise<{ spec: SandboxSpec; problem?: string }>;
}

/** Specs that do not change while the server runs (SANDBOX_SPECS_FILE, read at start). */
export const fixedSpecCatalog = (specs: SandboxSpec[]): SpecCatalog => ({ list: async () => specs });
