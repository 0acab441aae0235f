import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_PUBLISHED_HOST } from './published-host';
import { freeSandboxPorts, sandboxPortRange } from './sandbox-ports';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'port-range-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A file like /proc/sys/net/ipv4/ip_local_port_range saying `text`. */
const rangeFile = (text: string) => {
  const file = path.join(dir, `range-${text.replace(/\s+/g, '-')}`);
  fs.writeFileSync(file, text);
  return file;
};

describe('sandbox ports', () => {
  it('come from below the kernel’s ephemeral range, where no bind to port 0 takes them first, all different', async () => {
    expect(sandboxPortRange(rangeFile('32768\t60999\n'))).toEqual({ low: 20_000, high: 26_999 });
    const ports = await freeSandboxPorts(60, { low: 20_000, high: 26_999 });
    expect(new Set(ports).size).toBe(60);
    for (const port of ports) expect(port >= 20_000 && port <= 26_999, String(port)).toBe(true);
  });

  it('come from the kernel where its range leaves no room below it, or it does not say', async () => {
    expect(sandboxPortRange(rangeFile('24000 60999'))).toBeUndefined();
    expect(sandboxPortRange(path.join(dir, 'no-such-file'))).toBeUndefined();
    // The kernel's own pick for port 0 is in its ephemeral range.
    const [ephemeralStart] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    const [port] = await freeSandboxPorts(1, undefined);
    expect(port).toBeGreaterThanOrEqual(ephemeralStart!);
  });

  it('are never one that is taken', async () => {
    // A range of one port, taken: the kernel gives another.
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, SANDBOX_PUBLISHED_HOST, resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      expect(await freeSandboxPorts(2, { low: port, high: port })).not.toContain(port);
    } finally {
      taken.close();
    }
  });
});
