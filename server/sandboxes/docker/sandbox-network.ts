import type Docker from 'dockerode';

/**
 * The network every sandbox's container is on: a bridge with traffic between its containers off
 * (`enable_icc=false`), so a container reaches the internet and the host (`host.docker.internal`),
 * never another sandbox's ports. Docker's default bridge lets containers reach each other.
 */
export const SANDBOX_NETWORK_NAME = 'agent-console-sandboxes';

const NO_TRAFFIC_BETWEEN_CONTAINERS = { 'com.docker.network.bridge.enable_icc': 'false' };

/** The bridge interface of a network made here: a fixed name, so the host's rules for it (network-limits.ts) outlive the network. */
const BRIDGE_NAME = 'agent-console0';

export interface SandboxNetwork {
  /** The host's address on it: where a container reaches the host's listeners (the LLM proxy's among them). */
  gateway: string;
  /** The host's interface of it, which the host's rules for its traffic name. */
  bridge: string;
}

/**
 * Makes the network when the engine does not have it; refuses one of that name that lets
 * containers reach each other.
 */
export async function ensureSandboxNetwork(docker: Docker): Promise<SandboxNetwork> {
  const [found] = await docker.listNetworks({ filters: JSON.stringify({ name: [`^${SANDBOX_NETWORK_NAME}$`] }) });
  if (!found) {
    try {
      await docker.createNetwork({
        Name: SANDBOX_NETWORK_NAME,
        Driver: 'bridge',
        CheckDuplicate: true,
        Options: { ...NO_TRAFFIC_BETWEEN_CONTAINERS, 'com.docker.network.bridge.name': BRIDGE_NAME },
        Labels: { 'agent-console.network': 'sandboxes' },
      });
    } catch (error) {
      // Another server made it meanwhile: it is checked below.
      if ((error as { statusCode?: number }).statusCode !== 409) throw error;
    }
  }
  const network = await docker.getNetwork(SANDBOX_NETWORK_NAME).inspect();
  if (network.Options?.['com.docker.network.bridge.enable_icc'] !== 'false') {
    throw new Error(
      `The Docker network ${SANDBOX_NETWORK_NAME} lets containers reach each other (enable_icc is not false): remove it, and the server makes it again`,
    );
  }
  const gateway = (network.IPAM?.Config as { Gateway?: string }[] | undefined)?.find((config) => config.Gateway)?.Gateway;
  if (!gateway) throw new Error(`The Docker network ${SANDBOX_NETWORK_NAME} has no gateway address`);
  // Docker names a bridge made without a name after the network's id.
  return { gateway, bridge: network.Options?.['com.docker.network.bridge.name'] ?? `br-${String(network.Id).slice(0, 12)}` };
}
