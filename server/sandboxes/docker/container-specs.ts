import type { SandboxSpec } from '../../../src/contract/sandboxes';
import { AGENT_SERVER_SPEC_ID } from '../specs';
import { AGENT_SERVER_CONTAINER_COMMAND } from './sandbox-image';

/** The specs as containers run them: the agent server is the image's own, not this machine's path to it. */
export const specsForContainers = (specs: SandboxSpec[]): SandboxSpec[] =>
  specs.map((spec) => (spec.id === AGENT_SERVER_SPEC_ID ? { ...spec, command: AGENT_SERVER_CONTAINER_COMMAND } : spec));
