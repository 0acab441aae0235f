import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runInGroup } from '../../processes/run';
import { type Exec, StepFailed, WorkspaceSetup } from './workspace-setup';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: cwd,
      GIT_AUTHOR_NAME: 'A',
      GIT_AUTHOR_EMAIL: 'a@example.com',
      GIT_COMMITTER_NAME: 'A',
      GIT_COMMITTER_EMAIL: 'a@example.com',
    },
  }).trim();

/** A sandbox's home on this machine, with a repository to clone that has `main` and `pr-7`. */
function home(): { dir: string; url: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'workspace-setup-'));
  homes.push(dir);
  const work = path.join(dir, 'upstream');
  fs.mkdirSync(work);
  git(work, 'init', '--quiet', '--initial-branch=main');
  git(work, 'commit', '--quiet', '--allow-empty', '-m', 'first');
  git(work, 'branch', 'pr-7');
  git(dir, 'clone', '--quiet', '--bare', work, 'remote.git');
  return { dir, url: `file://${path.join(dir, 'remote.git')}` };
}

/**
 * Runs commands in `dir` as a sandbox runs them in its home; those `ended` picks out are not run
 * but answered as a command the time limit ended before it wrote anything (a real abort races the
 * command: a quick one may finish first).
 */
const execIn =
  (dir: string, ended: (command: string[]) => boolean = () => false): Exec =>
  (command, { cwd, env, timeoutMs }) =>
    ended(command)
      ? Promise.resolve({ exitCode: null, output: '', timedOut: true })
      : runInGroup(command, { cwd: path.join(dir, cwd ?? '.'), env: { PATH: process.env.PATH!, HOME: dir, ...env }, timeoutMs });

const isCheckout = (command: string[]) => command.some((word) => word.includes('git checkout'));

describe("a conversation's workspace", () => {
  it("checks out a pull request's branch as it is on the remote, and makes a new branch where there is none", async () => {
    const { dir, url } = home();
    await new WorkspaceSetup(execIn(dir), 'pr', {}).prepare({ name: 'acme/app', source: { url, env: {} }, branch: 'pr-7' });
    expect(git(path.join(dir, 'pr'), 'rev-parse', '--abbrev-ref', 'pr-7@{upstream}')).toBe('origin/pr-7');
    await new WorkspaceSetup(execIn(dir), 'new', {}).prepare({ name: 'acme/app', source: { url, env: {} }, branch: 'agent/new' });
    expect(git(path.join(dir, 'new'), 'branch', '--show-current')).toBe('agent/new');
  });

  it('says how a checkout ended when git wrote nothing: it gets as long as the clone', async () => {
    const { dir, url } = home();
    const setup = new WorkspaceSetup(execIn(dir, isCheckout), 'ws', {});
    const failed = setup.prepare({ name: 'acme/app', source: { url, env: {} }, branch: 'pr-7' });
    await expect(failed).rejects.toThrow(StepFailed);
    await expect(failed).rejects.toThrow(/^Could not check out branch pr-7: git did not finish within 120 s without output$/);
  });

  it('says how the clone ended when git wrote nothing', async () => {
    const { dir, url } = home();
    const setup = new WorkspaceSetup(
      execIn(dir, (command) => command.includes('clone')),
      'ws',
      {},
    );
    await expect(setup.prepare({ name: 'acme/app', source: { url, env: {} }, branch: null })).rejects.toThrow(
      /^Could not clone acme\/app: git did not finish within 120 s without output$/,
    );
  });

  it('says how the look at the workspace ended when it wrote nothing', async () => {
    const { dir, url } = home();
    const look = (command: string[]) => command[0] === 'sh' && !isCheckout(command);
    const setup = new WorkspaceSetup(execIn(dir, look), 'ws', {});
    await setup.prepare({ name: 'acme/app', source: { url, env: {} }, branch: null });
    await expect(setup.skills()).rejects.toThrow(
      /^Could not find the workspace in the sandbox: the look at it did not finish within 60 s without output$/,
    );
  });
});
