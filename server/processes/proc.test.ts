import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { hasEnvironEntry, liveProcesses, markedProcesses } from './proc';

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => children.splice(0).forEach((child) => child.kill('SIGKILL')));

/** A sleeping process with exactly `env` for its environment. */
function sleeper(env: Record<string, string>): number {
  const child = spawn('sleep', ['30'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}

describe('a process environment entry', () => {
  it('is found whole: not in a longer value, nor at the end of a longer name', () => {
    const pid = sleeper({ PREFIX_MARK: 'box-1', MARK: 'box-2', OTHER: 'MARK=box-3' });
    expect(hasEnvironEntry(pid, 'MARK', 'box-2')).toBe(true);
    expect(hasEnvironEntry(pid, 'MARK', 'box')).toBe(false);
    expect(hasEnvironEntry(pid, 'MARK', 'box-1')).toBe(false);
    expect(hasEnvironEntry(pid, 'MARK', 'box-3')).toBe(false);
    expect(hasEnvironEntry(pid, 'PREFIX_MARK', 'box-1')).toBe(true);
  });

  it('is sought among a look already taken, or all live processes', () => {
    const marked = sleeper({ MARK: 'box-4' });
    const other = sleeper({ MARK: 'box-44' });
    const all = liveProcesses();
    expect(markedProcesses('MARK', 'box-4').map((p) => p.pid)).toEqual([marked]);
    expect(markedProcesses('MARK', 'box-44', all).map((p) => p.pid)).toEqual([other]);
    expect(markedProcesses('MARK', 'box-4', all.filter((p) => p.pid !== marked))).toEqual([]);
  });

  it('is not found for a process that is gone', () => {
    expect(hasEnvironEntry(2 ** 22 + 1, 'MARK', 'x')).toBe(false);
  });
});
