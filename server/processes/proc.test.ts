import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { environValue, liveProcesses, markedProcesses } from './proc';

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => children.splice(0).forEach((child) => child.kill('SIGKILL')));

/** A sleeping process with exactly `env` for its environment. */
function sleeper(env: Record<string, string>): number {
  const child = spawn('sleep', ['30'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}

describe('a process environment entry', () => {
  it('is found by its whole name: not at the end of a longer one, nor in another entry’s value', () => {
    const pid = sleeper({ PREFIX_MARK: 'box-1', MARK: 'box-2', OTHER: 'MARK=box-3' });
    expect(environValue(pid, 'MARK')).toBe('box-2');
    expect(environValue(pid, 'PREFIX_MARK')).toBe('box-1');
    expect(environValue(pid, 'OTHER')).toBe('MARK=box-3');
    expect(environValue(pid, 'MAR')).toBeUndefined();
    expect(markedProcesses('MARK', 'box').map((p) => p.pid)).toEqual([]);
  });

  it('is sought among a look already taken, or all live processes', () => {
    const marked = sleeper({ MARK: 'box-4' });
    const other = sleeper({ MARK: 'box-44' });
    const all = liveProcesses();
    expect(markedProcesses('MARK', 'box-4').map((p) => p.pid)).toEqual([marked]);
    expect(markedProcesses('MARK', 'box-44', all).map((p) => p.pid)).toEqual([other]);
    expect(
      markedProcesses(
        'MARK',
        'box-4',
        all.filter((p) => p.pid !== marked),
      ),
    ).toEqual([]);
  });

  it('is not found for a process that is gone', () => {
    expect(environValue(2 ** 22 + 1, 'MARK')).toBeUndefined();
  });
});
