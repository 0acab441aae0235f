import type { CloneSource } from '../../git-providers/clone';
import type { ExecResult } from '../../sandboxes/runtime';

/** A step of a conversation's start that failed, with words a person can act on. */
export class StepFailed extends Error {}

export type Exec = (command: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs: number }) => Promise<ExecResult>;

const GIT_TIMEOUT_MS = 120_000;
/** A command that takes a moment, on a machine at rest; entering a sandbox on a busy one can take many seconds. */
const QUICK_MS = 60_000;
const LAST_LINES = 20;

const lastLines = (output: string, count: number) => output.trimEnd().split('\n').slice(-count).join('\n');

/** "exited with code 2", "did not finish within 300 s" or "was ended by a signal". */
function howItEnded(result: ExecResult, timeoutMs: number): string {
  if (result.timedOut) return `did not finish within ${Math.round(timeoutMs / 1000)} s`;
  return result.exitCode === null ? 'was ended by a signal' : `exited with code ${result.exitCode}`;
}

/** How a command ended and its last lines: never empty, even when it wrote nothing. */
function whatHappened(result: ExecResult, timeoutMs: number, lines: number): string {
  const said = lastLines(result.output, lines);
  return said ? `${howItEnded(result, timeoutMs)}: ${said}` : `${howItEnded(result, timeoutMs)} without output`;
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

  #contents: Promise<WorkspaceContents> | undefined;

  #run(command: string[], timeoutMs: number, extraEnv: Record<string, string> = {}, cwd = this.workspace) {
    return this.exec(command, { cwd, env: { ...this.env, ...extraEnv }, timeoutMs });
  }

  /**
   * What the later steps look for, asked in one command (each command is a process entered into
   * the sandbox): read once, and again only after the setup script, which may have changed it.
   */
  #look(): Promise<WorkspaceContents> {
    this.#contents ??= this.#runThenLook(
      '',
      [],
      this.workspace,
      QUICK_MS,
      (happened) => new StepFailed(`Could not find the workspace in the sandbox: the look at it ${happened}`),
    );
    return this.#contents;
  }

  /**
   * Runs `script` (with `args` as `$1`…; a failure exits non-zero), then looks at the workspace
   * it leaves the shell in, in the same command: one process entered into the sandbox, not two.
   * `failed` is told how the command ended and what it wrote last.
   */
  async #runThenLook(
    script: string,
    args: string[],
    cwd: string,
    timeoutMs: number,
    failed: (happened: string) => StepFailed,
  ): Promise<WorkspaceContents> {
    const result = await this.#run(['sh', '-c', `${script}\nprintf '%s\\n' '${LOOKED_AT}'\n${LOOK}`, 'sh', ...args], timeoutMs, {}, cwd);
    const [before = '', after] = result.output.split(`${LOOKED_AT}\n`);
    if (result.exitCode !== 0) throw failed(whatHappened({ ...result, output: before }, timeoutMs, 3));
    if (after === undefined) throw failed(`its output ended before the look at the workspace: ${lastLines(before, 3) || 'none'}`);
    return parseLook(after);
  }

  /** An empty workspace (a git repository), or `repository` cloned into it with `branch` checked out (created when new). */
  async prepare(repository?: { name: string; source: CloneSource; branch: string | null }): Promise<void> {
    if (!repository) {
      // A repository of its own, so that its changes can be shown as for a cloned one (every file
      // the agent writes is one); a workspace already in one keeps it, and one without git is still made.
      const make = 'mkdir -p -- "$1" && cd -- "$1" || exit 1\ngit init --quiet || true';
      this.#contents = this.#runThenLook(
        make,
        [this.workspace],
        '.',
        QUICK_MS,
        (happened) => new StepFailed(`Could not create the workspace: it ${happened}`),
      );
      await this.#contents;
      return;
    }

    // git makes the workspace's folders itself. Its credentials are in this command's environment only.
    const clone = await this.#run(
      ['git', 'clone', '--quiet', '--', repository.source.url, this.workspace],
      GIT_TIMEOUT_MS,
      repository.source.env,
      '.',
    );
    if (clone.exitCode !== 0) {
      throw new StepFailed(`Could not clone ${repository.name}: git ${whatHappened(clone, GIT_TIMEOUT_MS, 3)}`);
    }
    if (!repository.branch) return;
    const branch = repository.branch;
    // The branch as it is on the remote, or a new one where there is none. A git command: as long as the clone may take.
    const checkout = 'git checkout --quiet "$1" -- 2>/dev/null || git checkout --quiet -b "$1" -- || exit 1';
    this.#contents = this.#runThenLook(
      checkout,
      [branch],
      this.workspace,
      GIT_TIMEOUT_MS,
      (happened) => new StepFailed(`Could not check out branch ${branch}: git ${happened}`),
    );
    await this.#contents;
  }

  /** Runs `.openhands/setup.sh` when the repository has one. */
  async runSetupScript(timeoutMs: number): Promise<void> {
    if (!(await this.#look()).setupScript) return;
    const result = await this.#run(['sh', SETUP_SCRIPT], timeoutMs);
    this.#contents = undefined;
    if (result.exitCode === 0) return;
    throw new StepFailed(
      `The setup script ${SETUP_SCRIPT} ${howItEnded(result, timeoutMs)}. Its last lines:\n${lastLines(result.output, LAST_LINES)}`,
    );
  }

  /** `.openhands/pre-commit.sh` becomes the workspace's pre-commit hook. */
  async installGitHooks(): Promise<void> {
    const { preCommitHook, gitRepository } = await this.#look();
    if (!preCommitHook || !gitRepository) return;
    const install = `mkdir -p .git/hooks && cp ${PRE_COMMIT_HOOK} .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`;
    const result = await this.#run(['sh', '-c', install], QUICK_MS);
    if (result.exitCode !== 0) throw new StepFailed(`Could not install the pre-commit hook: it ${whatHappened(result, QUICK_MS, 3)}`);
  }

  /** The names of the repository's skills: `.openhands/skills/*.md` and `.openhands/microagents/*.md`. */
  async skills(): Promise<string[]> {
    return (await this.#look()).skills;
  }

  /** The workspace's absolute path as the sandbox sees it (what the agent server works in). */
  async absolutePath(): Promise<string> {
    return (await this.#look()).path;
  }
}

const SETUP_SCRIPT = '.openhands/setup.sh';
const PRE_COMMIT_HOOK = '.openhands/pre-commit.sh';

interface WorkspaceContents {
  path: string;
  setupScript: boolean;
  preCommitHook: boolean;
  gitRepository: boolean;
  skills: string[];
}

/** The line between what a command did and what it found when it looked (see #runThenLook). */
const LOOKED_AT = '--- looked at the workspace ---';

/** Prints the workspace's path, then one line per thing found: `setup`, `hook`, `git`, `skill:<name>`. */
const LOOK = [
  'pwd || exit 1',
  `[ -f ${SETUP_SCRIPT} ] && echo setup`,
  `[ -f ${PRE_COMMIT_HOOK} ] && echo hook`,
  '[ -f .git/HEAD ] && echo git',
  'for f in .openhands/skills/*.md .openhands/microagents/*.md; do [ -f "$f" ] && echo "skill:$(basename "$f" .md)"; done',
  'true',
].join('\n');

function parseLook(output: string): WorkspaceContents {
  const [path = '', ...found] = output.split('\n');
  return {
    path: path.trim(),
    setupScript: found.includes('setup'),
    preCommitHook: found.includes('hook'),
    gitRepository: found.includes('git'),
    skills: found.flatMap((line) => (line.startsWith('skill:') ? [line.slice('skill:'.length)] : [])).sort(),
  };
}
