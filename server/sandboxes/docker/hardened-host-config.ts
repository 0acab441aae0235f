import os from 'node:os';
import type { ContainerLimits } from '../docker-runtime';
import { SANDBOX_NETWORK_NAME } from './sandbox-network';

/**
 * What every container of user-supplied code runs with (a sandbox, an MCP server under test): no
 * capabilities, no new privileges, `limits` (times `factor`) on memory, CPUs and processes, the
 * sandboxes' network, and the host by name.
 */
export function hardenedHostConfig(limits: ContainerLimits, factor = 1) {
  return {
    Init: true,
    CapDrop: ['ALL'],
    SecurityOpt: ['no-new-privileges'],
    Privileged: false,
    Memory: Math.round(limits.memoryBytes * factor),
    MemorySwap: Math.round(limits.memoryBytes * factor), // no swap: the limit is the limit
    // No more than the machine has: the engine refuses a container that asks for more.
    NanoCpus: Math.round(Math.min(limits.cpus * factor, os.availableParallelism()) * 1e9),
    PidsLimit: limits.pids,
    ExtraHosts: ['host.docker.internal:host-gateway'],
    NetworkMode: SANDBOX_NETWORK_NAME,
  };
}
