import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { runTerminal } from './terminal';
import { running } from '../../testing/running-commands';

const context = { workingDir: os.tmpdir(), env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, mask: (text: string) => text };

/** Runs `command` and presses Stop once it has run for a while, as a user would mid-command. */
async function stopWhileRunning(command: string) {
  const stop = new AbortController();
  const observation = runTerminal({ kind: 'TerminalAction', command, is_input: false, timeout: null, reset: false }, context, stop.signal);
  await new Promise((resolve) => setTimeout(resolve, 300));
  stop.abort();
  return observation;
}

describe('Stop on a command that keeps forking', () => {
  // Each test's background processes have their own command line, so one test's leftovers
  // never count in another's.
  const leftovers = ['sleep 611', 'sleep 612', 'sleep 613'];
  afterEach(() => {
    for (const command of leftovers) for (const pid of running(command)) process.kill(Number(pid), 'SIGKILL');
  });

  it('reaches every process, even one forked while the tree is read, so none outlives the shell', async () => {
    const observation = await stopWhileRunning('trap "exit 130" INT; while :; do sleep 611 & done');
    expect(observation).toMatchObject({ exit_code: 130, is_error: true });
    // The background ones ignore SIGINT (a non-interactive shell's `&`): the kill after the grace ends them.
    await expect.poll(() => running('sleep 611'), { timeout: 10_000 }).toEqual([]);
  });

  it('reaches what the command forks as it handles the interrupt, once its shell has ended and left it', async () => {
    const observation = await stopWhileRunning('trap "sleep 613 & exit 130" INT; while :; do sleep 0.05; done');
    expect(observation).toMatchObject({ exit_code: 130, is_error: true });
    await expect.poll(() => running('sleep 613'), { timeout: 10_000 }).toEqual([]);
  });

  it('kills a loop that ignores the interrupt, with all it forked', async () => {
    const observation = await stopWhileRunning('trap "" INT; while :; do sleep 612 & done');
    expect(observation).toMatchObject({ exit_code: 137, is_error: true });
    await expect.poll(() => running('sleep 612'), { timeout: 10_000 }).toEqual([]);
  });
});
