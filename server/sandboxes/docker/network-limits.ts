import type Docker from 'dockerode';
import type { Logger } from '../../logger';
import { NON_PUBLIC_IPV4_RANGES } from '../non-public-ranges';
import { engineMessage } from './engine-errors';
import { ensureSandboxNetwork, type SandboxNetwork } from './sandbox-network';

/*
 * What a container on the sandboxes' network may reach beyond the host: the internet, no
 * non-public address (the LAN, cloud metadata, other Docker networks). The engine's host routes a
 * container's traffic to other machines through its FORWARD chain, whose DOCKER-USER chain Docker
 * keeps for rules of this kind; the host itself (its addresses, where the LLM proxy listens) is
 * not forwarded to, and stays reachable. The engine's DNS asks the host's name servers from the
 * container's network, so those stay reachable on port 53 when they have private addresses. The
 * rules go in through the engine, from a container on the host's network with the capabilities
 * iptables needs, running the host's own iptables: it works the same for a server that is not
 * root and for an engine on another machine.
 */

/** The host's chain of the rules; DOCKER-USER sends the bridge's traffic to it. */
const CHAIN = 'AGENT-CONSOLE-SANDBOXES';

/** The chain, made or emptied and filled in one step (iptables-restore commits it whole). */
const RULES = [
  '*filter',
  `:${CHAIN} - [0:0]`,
  // Answers to what reached a container (its published ports) go back wherever they came from.
  `-A ${CHAIN} -m conntrack --ctstate RELATED,ESTABLISHED -j RETURN`,
  ...NON_PUBLIC_IPV4_RANGES.map((range) => `-A ${CHAIN} -d ${range} -j REJECT`),
  'COMMIT',
  '',
].join('\n');

/**
 * The rules ($1); then, first in the chain, DNS to the host's name servers (systemd-resolved's,
 * whose stub Docker skips, and those of /etc/resolv.conf); then the jump of the bridge ($2) to
 * the chain, added once. `-w` waits for the xtables lock Docker may hold.
 */
const SCRIPT = [
  'printf "%s" "$1" | iptables-restore -w --noflush',
  'for file in /run/systemd/resolve/resolv.conf /etc/resolv.conf; do [ -f "$file" ] && cat "$file"; done |',
  "  sed -n 's/^nameserver[[:space:]]*\\([0-9.]*\\)[[:space:]]*$/\\1/p' | sort -u | while read -r server; do",
  `    for protocol in udp tcp; do iptables -w -I ${CHAIN} -d "$server" -p "$protocol" --dport 53 -j RETURN; done`,
  '  done',
  `iptables -w -C DOCKER-USER -i "$2" -j ${CHAIN} 2>/dev/null || iptables -w -I DOCKER-USER -i "$2" -j ${CHAIN}`,
].join('\n');

/**
 * Runs `script` (sh, with `args` as $1…) as root with the host's root as its own, in a throwaway
 * container of `image` (the default sandbox image: it has `chroot`) on the host's network with
 * the capabilities to change its rules (and enter its root) and nothing more; `undefined` when it
 * succeeded, else why not.
 */
async function runOnHost(docker: Docker, image: string, script: string, args: string[]): Promise<string | undefined> {
  let container: Docker.Container | undefined;
  try {
    container = await docker.createContainer({
      Image: image,
      User: '0:0',
      Cmd: ['chroot', '/host', '/bin/sh', '-c', `set -e\nPATH=/usr/sbin:/usr/bin:/sbin:/bin\n${script}`, 'on-host', ...args],
      Tty: true, // its words come back as written, for the reason it failed
      Labels: { 'agent-console.on-host': '1' },
      HostConfig: {
        NetworkMode: 'host',
        CapDrop: ['ALL'],
        // NET_RAW: iptables-legacy talks to the kernel over a raw socket.
        CapAdd: ['NET_ADMIN', 'NET_RAW', 'SYS_CHROOT'],
        SecurityOpt: ['no-new-privileges'],
        Binds: ['/:/host:ro'],
      },
    });
    await container.start();
    const { StatusCode } = (await container.wait()) as { StatusCode: number };
    if (StatusCode === 0) return undefined;
    const words = (await container.logs({ stdout: true, stderr: true })).toString().trim();
    return `exit ${StatusCode}${words ? `: ${words.split('\n').slice(-2).join(' ')}` : ''}`;
  } catch (error) {
    return engineMessage(error);
  } finally {
    await container?.remove({ force: true }).catch(() => undefined);
  }
}

/** Puts the rules in place for `network`'s bridge; `undefined` when done, else why not. */
async function limitSandboxNetwork(docker: Docker, image: string, network: SandboxNetwork): Promise<string | undefined> {
  const refusal = await runOnHost(docker, image, SCRIPT, [RULES, network.bridge]);
  return refusal && `the host's iptables refused them (${refusal})`;
}

/** Takes the rules off `network`'s bridge (its jump to them): what `limitSandboxNetwork` puts back. */
export const unlimitSandboxNetwork = (docker: Docker, image: string, network: SandboxNetwork) =>
  runOnHost(docker, image, `iptables -w -D DOCKER-USER -i "$1" -j ${CHAIN} 2>/dev/null || true`, [network.bridge]);

/**
 * The sandboxes' network as every container of user-supplied code starts on it: made when
 * missing, its limits put in place at the first container after the server starts (the host's
 * rules outlive the server; a start puts back what a reboot or a flush of the host's rules
 * removed). When the limits cannot be put in place, one warning says so, and containers start
 * unlimited.
 */
export class LimitedSandboxNetwork {
  #ready: Promise<SandboxNetwork> | undefined;

  constructor(
    private readonly docker: Docker,
    /** The default sandbox image: what the rules are put in place from. */
    private readonly image: string,
    private readonly log: Logger,
  ) {}

  ready(): Promise<SandboxNetwork> {
    this.#ready ??= this.#limit().catch((error: unknown) => {
      this.#ready = undefined; // tried again at the next container
      throw error;
    });
    return this.#ready;
  }

  async #limit(): Promise<SandboxNetwork> {
    const network = await ensureSandboxNetwork(this.docker);
    const refusal = await limitSandboxNetwork(this.docker, this.image, network);
    if (refusal) this.log.warn({ reason: refusal }, 'containers’ networks are not limited: they reach the LAN and cloud metadata');
    return network;
  }
}
