import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { canSwitchUsers } from '../processes/process-user';
import { SandboxUsers } from './sandbox-users';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('SandboxUsers.allocate', () => {
  it('hands out the next uid each time, so a deleted sandbox’s uid does not come back at once', async () => {
    const homes = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-homes-'));
    dirs.push(homes);
    const users = new SandboxUsers(5_000_000);
    const first = await users.allocate(homes);
    const second = await users.allocate(homes);
    expect([first.uid, second.uid]).toEqual([5_000_000, 5_000_001]);
    // Nothing of the first is left, and still its uid is not next.
    expect((await users.allocate(homes)).uid).toBe(5_000_002);
  });

  it.runIf(canSwitchUsers())('skips a uid that owns a home, one being removed, or one a process runs as', async () => {
    const homes = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-homes-'));
    dirs.push(homes);
    const users = new SandboxUsers(5_100_000);
    fs.mkdirSync(path.join(homes, 'a'));
    fs.chownSync(path.join(homes, 'a'), 5_100_000, 5_100_000);
    fs.mkdirSync(path.join(homes, '.trash', 'b'), { recursive: true });
    fs.chownSync(path.join(homes, '.trash', 'b'), 5_100_001, 5_100_001);
    const sleeper = spawn('sleep', ['30'], { uid: 5_100_002, gid: 5_100_002, stdio: 'ignore' });
    try {
      await new Promise((resolve) => sleeper.once('spawn', resolve));
      expect((await users.allocate(homes)).uid).toBe(5_100_003);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });
});
