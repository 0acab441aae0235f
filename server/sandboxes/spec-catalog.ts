import type { SandboxSpec } from '../../src/contract/sandboxes';

/**
 * The specs sandboxes start from, the default first. Process sandboxes have a fixed list; on
 * Docker it also follows the engine's labelled images and the Settings image (see
 * `ContainerSpecCatalog`), so it is read on each use.
 */
export interface SpecCatalog {
  list(): Promise<SandboxSpec[]>;
}

/** Specs that do not change while the server runs (SANDBOX_SPECS_FILE, read at start). */
export const fixedSpecCatalog = (specs: SandboxSpec[]): SpecCatalog => ({ list: async () => specs });
