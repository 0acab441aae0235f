import fs from 'node:fs';
import net from 'node:net';
import { SANDBOX_PUBLISHED_HOST } from './published-host';

/** The lowest port handed to a sandbox: above the ports services are usually configured on. */
const LOWEST = 10_000;

/**
 * Where ports are picked for sandboxes: below the kernel's ephemeral range, from which every bind
 * to port 0 (a server's, a client's, Docker's published ports) takes its port. A port picked
 * here is bound by its sandbox only later (by slirp4netns, or its agent server); taken from the
 * ephemeral range, someone else's port 0 could get it first. `undefined` where the kernel leaves
 * no such room (or does not say, off Linux).
 */
export function sandboxPortRange(rangeFile = '/proc/sys/net/ipv4/ip_local_port_range'): { low: number; high: number } | undefined {
  let ephemeralStart: number;
  try {
    ephemeralStart = Number(fs.readFileSync(rangeFile, 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return undefined;
  }
  return Number.isInteger(ephemeralStart) && ephemeralStart - LOWEST >= 1000 ? { low: LOWEST, high: ephemeralStart - 1 } : undefined;
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

/**
 * A port for a sandbox (its agent server's or an app's), free now on the published address: at
 * random in `sandboxPortRange`, else one the kernel gives.
 */
export async function freeSandboxPort(range = sandboxPortRange()): Promise<number> {
  if (range) {
    for (let tries = 0; tries < 50; tries++) {
      const port = range.low + Math.floor(Math.random() * (range.high - range.low + 1));
      if ((await bindable(port)) !== undefined) return port;
    }
  }
  const port = await bindable(0);
  if (port === undefined) throw new Error(`No port is free on ${SANDBOX_PUBLISHED_HOST}`);
  return port;
}
