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

/** Runs commands in `dir` as a sandbox runs them in its home. */
const execIn =
  (dir: string): Exec =>
  (command, { cwd, env, timeoutMs }) =>
    runInGroup(command, { cwd: path.join(dir, cwd ?? '.'), env: { PATH: process.env.PATH!, HOME: dir, ...env }, timeoutMs });

/**
 * Runs commands as `execIn` does, with a git whose `subcommand` never ends and writes nothing.
 * Once it has begun, the command is ended as its time limit would end it: the step then says
 * its own limit, however long the rest took on a busy machine.
 */
function execWithHangingGit(dir: string, subcommand: string): Exec {
  const bin = path.join(dir, 'bin');
  const hanging = path.join(dir, 'hanging');
  fs.mkdirSync(bin);
  const git = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const wrapper = `#!/bin/sh\nif [ "$1" = ${subcommand} ]; then : > '${hanging}'; exec sleep 60; fi\nexec ${git} "$@"\n`;
  fs.writeFileSync(path.join(bin, 'git'), wrapper, { mode: 0o755 });
  return async (command, { cwd, env, timeoutMs }) => {
    const timeUp = new AbortController();
    const watch = setInterval(() => fs.existsSync(hanging) && timeUp.abort(), 20);
    try {
      return await runInGroup(command, {
        ...{ cwd: path.join(dir, cwd ?? '.'), timeoutMs, signal: timeUp.signal },
        env: { PATH: `${bin}:${process.env.PATH}`, HOME: dir, ...env },
      });
    } finally {
      clearInterval(watch);
    }
  };
}

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
    const setup = new WorkspaceSetup(execWithHangingGit(dir, 'checkout'), 'ws', {});
    const failed = setup.prepare({ name: 'acme/app', source: { url, env: {} }, branch: 'pr-7' });
    await expect(failed).rejects.toThrow(StepFailed);
    await expect(failed).rejects.toThrow(/^Could not check out branch pr-7: git did not finish within 120 s without output$/);
    // The clone was done: the checkout is what failed.
    expect(fs.existsSync(path.join(dir, 'ws', '.git'))).toBe(true);
  });

  it('says how the clone ended when git wrote nothing', async () => {
    const { dir, url } = home();
    const setup = new WorkspaceSetup(execWithHangingGit(dir, 'clone'), 'ws', {});
    await expect(setup.prepare({ name: 'acme/app', source: { url, env: {} }, branch: null })).rejects.toThrow(
      /^Could not clone acme\/app: git did not finish within 120 s without output$/,
    );
  });

  it('says what the clone wrote when it failed', async () => {
    const { dir } = home();
    const setup = new WorkspaceSetup(execIn(dir), 'ws', {});
    await expect(setup.prepare({ name: 'acme/app', source: { url: `file://${dir}/none.git`, env: {} }, branch: 'pr-7' })).rejects.toThrow(
      /^Could not clone acme\/app: git exited with code 128: .*and the repository exists\.$/s,
    );
  });

  it('says how the look at the workspace ended when it wrote nothing', async () => {
    // Every command answered as one its time limit ended before it wrote anything: a sandbox that stopped answering.
    const setup = new WorkspaceSetup(() => Promise.resolve({ exitCode: null, output: '', timedOut: true }), 'ws', {});
    await expect(setup.skills()).rejects.toThrow(
      /^Could not find the workspace in the sandbox: the look at it did not finish within 60 s without output$/,
    );
  });

  it('runs the setup script, then sees what it changed; a failed one says how it ended, with its last lines', async () => {
    const { dir, url } = home();
    const upstream = path.join(dir, 'upstream');
    fs.mkdirSync(path.join(upstream, '.openhands'));
    fs.writeFileSync(path.join(upstream, '.openhands', 'setup.sh'), 'mkdir -p .openhands/skills && touch .openhands/skills/made.md\n');
    git(upstream, 'add', '.');
    git(upstream, 'commit', '--quiet', '-m', 'setup');
    git(upstream, 'push', '--quiet', url, 'main');
    const setup = new WorkspaceSetup(execIn(dir), 'ws', {});
    await setup.prepare({ name: 'acme/app', source: { url, env: {} }, branch: null });
    expect(await setup.skills()).toEqual([]);
    await setup.runSetupScript(60_000);
    expect(await setup.skills()).toEqual(['made']);

    fs.writeFileSync(path.join(dir, 'ws', '.openhands', 'setup.sh'), 'echo one\necho two\nexit 3\n');
    await expect(new WorkspaceSetup(execIn(dir), 'ws', {}).runSetupScript(60_000)).rejects.toThrow(
      /^The setup script \.openhands\/setup\.sh exited with code 3\. Its last lines:\none\ntwo$/,
    );
  });
});
