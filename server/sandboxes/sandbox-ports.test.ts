import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SANDBOX_PUBLISHED_HOST } from './published-host';
import { freeSandboxPort, sandboxPortRange } from './sandbox-ports';

const rangeFile = (text: string) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'port-range-')), 'ip_local_port_range');
  fs.writeFileSync(file, text);
  return file;
};

describe('sandbox ports', () => {
  it('come from below the kernel’s ephemeral range, where no bind to port 0 takes them first', async () => {
    expect(sandboxPortRange(rangeFile('32768\t60999\n'))).toEqual({ low: 10_000, high: 32_767 });
    const range = sandboxPortRange();
    if (process.platform === 'linux') expect(range).toBeDefined();
    const ports = await Promise.all(Array.from({ length: 20 }, () => freeSandboxPort(range)));
    for (const port of ports) expect(port).toBeGreaterThanOrEqual(range?.low ?? 1);
    if (range) for (const port of ports) expect(port).toBeLessThanOrEqual(range.high);
  });

  it('come from the kernel where it leaves no room below its range, or does not say', async () => {
    expect(sandboxPortRange(rangeFile('10500 60999'))).toBeUndefined();
    expect(sandboxPortRange('/nonexistent/ip_local_port_range')).toBeUndefined();
    expect(await freeSandboxPort(undefined)).toBeGreaterThan(0);
  });

  it('are never one that is taken', async () => {
    // A range of one port, taken: the kernel gives another.
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, SANDBOX_PUBLISHED_HOST, resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      expect(await freeSandboxPort({ low: port, high: port })).not.toBe(port);
    } finally {
      taken.close();
    }
  });
});
