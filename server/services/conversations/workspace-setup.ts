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
   * the sandbox). A step that changes the workspace looks at it in its own command; this is for
   * when none did.
   */
  #look(): Promise<WorkspaceContents> {
    this.#contents ??= this.#runThenLook(
      '',
      [],
      { cwd: this.workspace, timeoutMs: QUICK_MS },
      (ended) => new StepFailed(`Could not find the workspace in the sandbox: the look at it ${whatHappened(ended, QUICK_MS, 3)}`),
    );
    return this.#contents;
  }

  /**
   * Runs `script` (with `args` as `$1`…; a failure exits non-zero), then looks at the workspace
   * it leaves the shell in, in the same command: one process entered into the sandbox, not two.
   * `failed` is told how the command ended, with what it wrote before the look.
   */
  async #runThenLook(
    script: string,
    args: string[],
    { cwd, timeoutMs, env = {} }: { cwd: string; timeoutMs: number; env?: Record<string, string> },
    failed: (ended: ExecResult) => StepFailed,
  ): Promise<WorkspaceContents> {
    const result = await this.#run(['sh', '-c', `${script}\nprintf '%s\\n' '${LOOKED_AT}'\n${LOOK}`, 'sh', ...args], timeoutMs, env, cwd);
    const [before = '', after] = result.output.split(`${LOOKED_AT}\n`);
    if (result.exitCode !== 0) throw failed({ ...result, output: before });
    if (after === undefined) {
      throw new StepFailed(`Could not look at the workspace: the command's output ended before it: ${lastLines(before, 3) || 'none'}`);
    }
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
        { cwd: '.', timeoutMs: QUICK_MS },
        (ended) => new StepFailed(`Could not create the workspace: it ${whatHappened(ended, QUICK_MS, 3)}`),
      );
      await this.#contents;
      return;
    }

    // The clone, the branch as it is on the remote (or a new one where there is none) and the
    // look, in one command; a line after the clone tells which part failed. git makes the
    // workspace's folders itself. Its credentials are in this command's environment only.
    const { name, source, branch } = repository;
    const script = [
      'git clone --quiet -- "$1" "$2" || exit',
      `printf '%s\\n' '${CLONED}'`,
      'cd -- "$2" || exit',
      ...(branch ? ['git checkout --quiet "$3" -- 2>/dev/null || git checkout --quiet -b "$3" -- || exit'] : []),
    ].join('\n');
    this.#contents = this.#runThenLook(
      script,
      [source.url, this.workspace, ...(branch ? [branch] : [])],
      { cwd: '.', timeoutMs: GIT_TIMEOUT_MS, env: source.env },
      (ended) => {
        const [, afterClone] = ended.output.split(`${CLONED}\n`);
        if (afterClone === undefined) return new StepFailed(`Could not clone ${name}: git ${whatHappened(ended, GIT_TIMEOUT_MS, 3)}`);
        const happened = whatHappened({ ...ended, output: afterClone }, GIT_TIMEOUT_MS, 3);
        return new StepFailed(
          branch
            ? `Could not check out branch ${branch}: git ${happened}`
            : `Could not find the workspace in the sandbox: the look at it ${happened}`,
        );
      },
    );
    await this.#contents;
  }

  /** Runs `.openhands/setup.sh` when the repository has one, then looks at what it changed. */
  async runSetupScript(timeoutMs: number): Promise<void> {
    if (!(await this.#look()).setupScript) return;
    this.#contents = this.#runThenLook(
      `sh ${SETUP_SCRIPT} || exit`,
      [],
      { cwd: this.workspace, timeoutMs },
      (ended) =>
        new StepFailed(
          `The setup script ${SETUP_SCRIPT} ${howItEnded(ended, timeoutMs)}. Its last lines:\n${lastLines(ended.output, LAST_LINES)}`,
        ),
    );
    await this.#contents;
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

/** The line a workspace's start writes once its clone is done (see prepare). */
const CLONED = '--- cloned ---';

/** The line between what a command did and what it found when it looked (see #runThenLook). */
const LOOKED_AT = '--- looked at the workspace ---';

/** Prints the workspace's path, then one line per thing found: `setup`, `hook`, `git`, `skill:<name>`. */
const LOOK = [
  'pwd || exit 1',
  `[ -f ${SETUP_SCRIPT} ] && echo setup`,
  `[ -f ${PRE_COMMIT_HOOK} ] && echo hook`,
  '[ -f .git/HEAD ] && echo git',
  // The name by the shell's own expansions: `basename` would be a process for each skill.
  'for f in .openhands/skills/*.md .openhands/microagents/*.md; do [ -f "$f" ] && name=${f##*/} && echo "skill:${name%.md}"; done',
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
