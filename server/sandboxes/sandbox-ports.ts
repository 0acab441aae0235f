import fs from 'node:fs';
import net from 'node:net';
import { SANDBOX_PUBLISHED_HOST } from './published-host';

export interface PortRange {
  low: number;
  high: number;
}

/**
 * Where sandboxes' ports come from: 20000–26999, clear of the ports services are commonly
 * configured on below it (10250, 11211, 15672…) and above it (27017 and on, Kubernetes' node
 * ports from 30000), and below the kernel's ephemeral range, from which every bind to port 0
 * (a server's, a client's, Docker's published ports) takes its port. A port picked here is bound
 * by its sandbox only later (by slirp4netns, or its agent server); taken from the ephemeral range,
 * someone else's port 0 could get it first. `undefined` where the kernel's range starts lower (or
 * the kernel does not say, off Linux).
 */
export function sandboxPortRange(rangeFile = '/proc/sys/net/ipv4/ip_local_port_range'): PortRange | undefined {
  const range = { low: 20_000, high: 26_999 };
  let ephemeralStart: number;
  try {
    ephemeralStart = Number(fs.readFileSync(rangeFile, 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return undefined;
  }
  return Number.isInteger(ephemeralStart) && ephemeralStart > range.high ? range : undefined;
}

/** Whether `port` (0: any) can be bound on the address sandboxes are published on; the port bound, or `undefined`. */
function bindable(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, SANDBOX_PUBLISHED_HOST, () => {
      const bound = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(bound));
    });
  });
}

/** A port free now on the published address and not in `taken`: at random in `range`, else one the kernel gives. */
async function freePort(range: PortRange | undefined, taken: ReadonlySet<number>): Promise<number> {
  for (let tries = 0; range && tries < 50; tries++) {
    const port = range.low + Math.floor(Math.random() * (range.high - range.low + 1));
    if (!taken.has(port) && (await bindable(port)) !== undefined) return port;
  }
  for (let tries = 0; tries < 10; tries++) {
    const port = await bindable(0);
    if (port !== undefined && !taken.has(port)) return port;
  }
  throw new Error(`No port is free on ${SANDBOX_PUBLISHED_HOST}`);
}

/** `count` different ports for a sandbox (its agent server's, its apps'), free now on the published address, from `range` (`sandboxPortRange()`). */
export async function freeSandboxPorts(count: number, range: PortRange | undefined): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort(range, ports));
  return [...ports];
}
