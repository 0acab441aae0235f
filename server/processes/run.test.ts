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
});
