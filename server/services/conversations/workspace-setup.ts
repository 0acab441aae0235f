import type { CloneSource } from '../../git-providers/clone';
import type { ExecResult } from '../../sandboxes/runtime';

/** A step of a conversation's start that failed, with words a person can act on. */
export class StepFailed extends Error {}

export type Exec = (command: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs: number }) => Promise<ExecResult>;

const GIT_TIMEOUT_MS = 120_000;
const QUICK_MS = 15_000;
const LAST_LINES = 20;

const lastLines = (output: string, count: number) => output.trimEnd().split('\n').slice(-count).join('\n');

/** "exited with code 2" or "did not finish within 300 s". */
function howItEnded(result: ExecResult, timeoutMs: number): string {
  return result.timedOut ? `did not finish within ${Math.round(timeoutMs / 1000)} s` : `exited with code ${result.exitCode}`;
}

/**
 * Prepares a conversation's workspace inside its sandbox, by running commands there as the
 * sandbox's own processes run: the repository, its setup script, its git hook, its skills
 * (OpenHands' `.openhands/` conventions). `env` (the user's custom secrets) is in every command's
 * environment.
 */
export class WorkspaceSetup {
  constructor(
    private readonly exec: Exec,
    /** The workspace directory, relative to the sandbox's home. */
    private readonly workspace: string,
    private readonly env: Record<string, string>,
  ) {}

  #run(command: string[], timeoutMs: number, extraEnv: Record<string, string> = {}, cwd = this.workspace) {
    return this.exec(command, { cwd, env: { ...this.env, ...extraEnv }, timeoutMs });
  }

  async #exists(file: string): Promise<boolean> {
    return (await this.#run(['test', '-f', file], QUICK_MS)).exitCode === 0;
  }

  /** An empty workspace (a git repository), or `repository` cloned into it with `branch` checked out (created when new). */
  async prepare(repository?: { name: string; source: CloneSource; branch: string | null }): Promise<void> {
    const made = await this.#run(['mkdir', '-p', this.workspace], QUICK_MS, {}, '.');
    if (made.exitCode !== 0) throw new StepFailed(`Could not create the workspace: ${lastLines(made.output, 3)}`);
    if (!repository) {
      // A repository of its own, so that its changes can be shown as for a cloned one (every file
      // the agent writes is one); a workspace already in one keeps it.
      await this.#run(['git', 'init', '--quiet'], QUICK_MS);
      return;
    }

    const clone = await this.#run(['git', 'clone', '--quiet', '--', repository.source.url, '.'], GIT_TIMEOUT_MS, repository.source.env);
    if (clone.exitCode !== 0) {
      throw new StepFailed(`Could not clone ${repository.name}: git ${howItEnded(clone, GIT_TIMEOUT_MS)}: ${lastLines(clone.output, 3)}`);
    }
    if (!repository.branch) return;
    const branch = repository.branch;
    const existing = await this.#run(['git', 'checkout', '--quiet', branch, '--'], QUICK_MS);
    if (existing.exitCode === 0) return;
    const created = await this.#run(['git', 'checkout', '--quiet', '-b', branch, '--'], QUICK_MS);
    if (created.exitCode !== 0) throw new StepFailed(`Could not check out branch ${branch}: ${lastLines(created.output, 3)}`);
  }

  /** Runs `.openhands/setup.sh` when the repository has one. */
  async runSetupScript(timeoutMs: number): Promise<void> {
    const script = '.openhands/setup.sh';
    if (!(await this.#exists(script))) return;
    const result = await this.#run(['sh', script], timeoutMs);
    if (result.exitCode === 0) return;
    throw new StepFailed(
      `The setup script ${script} ${howItEnded(result, timeoutMs)}. Its last lines:\n${lastLines(result.output, LAST_LINES)}`,
    );
  }

  /** `.openhands/pre-commit.sh` becomes the workspace's pre-commit hook. */
  async installGitHooks(): Promise<void> {
    const hook = '.openhands/pre-commit.sh';
    if (!(await this.#exists(hook)) || !(await this.#exists('.git/HEAD'))) return;
    const install = 'mkdir -p .git/hooks && cp .openhands/pre-commit.sh .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit';
    const result = await this.#run(['sh', '-c', install], QUICK_MS);
    if (result.exitCode !== 0) throw new StepFailed(`Could not install the pre-commit hook: ${lastLines(result.output, 3)}`);
  }

  /** The names of the repository's skills: `.openhands/skills/*.md` and `.openhands/microagents/*.md`. */
  async skills(): Promise<string[]> {
    const list = 'for f in .openhands/skills/*.md .openhands/microagents/*.md; do [ -f "$f" ] && basename "$f" .md; done; true';
    const result = await this.#run(['sh', '-c', list], QUICK_MS);
    return result.output.split('\n').filter(Boolean).sort();
  }

  /** The workspace's absolute path as the sandbox sees it (what the agent server works in). */
  async absolutePath(): Promise<string> {
    const result = await this.#run(['pwd'], QUICK_MS);
    if (result.exitCode !== 0) throw new StepFailed('Could not find the workspace in the sandbox');
    return result.output.trim();
  }
}
