import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { runInGroup } from './run';

const options = { cwd: os.tmpdir(), env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, timeoutMs: 60_000 };

describe('runInGroup', () => {
  it('ends a command when its signal aborts while it runs', async () => {
    const controller = new AbortController();
    const running = runInGroup(['sh', '-c', 'echo started; exec sleep 60'], { ...options, signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    expect(await running).toMatchObject({ exitCode: null, timedOut: true });
  });

  it('ends a command at once when its signal was aborted before it was given', async () => {
    const result = await runInGroup(['sleep', '60'], { ...options, signal: AbortSignal.abort() });
    expect(result).toMatchObject({ exitCode: null, timedOut: true });
  });

  it('keeps what a leftover process wrote within the drain wait, also after a turn that kept the event loop busy past it', async () => {
    // Right after the command's exit is handled, a turn of the loop is kept busy past the drain
    // wait, while its leftover process writes: that output is read before the result is given.
    let blocked = false;
    const busyTurnAfterExit = () => {
      if (blocked) return;
      blocked = true;
      setImmediate(() => {
        const until = Date.now() + 600;
        while (Date.now() < until);
      });
    };
    process.on('SIGCHLD', busyTurnAfterExit);
    try {
      const result = await runInGroup(['sh', '-c', '(sleep 0.1; printf late; sleep 1) & exit 0'], options);
      expect(blocked).toBe(true);
      expect(result).toMatchObject({ exitCode: 0, output: 'late' });
    } finally {
      process.off('SIGCHLD', busyTurnAfterExit);
    }
  });
});
