import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { isGone, isStopped, liveProcess, markedProcesses, type ProcStat, readProcStat } from '../../processes/proc';
import { constantBackoff, polls } from '../../retry';
import { type Observation, text, type ToolContext } from './observation';

export const DEFAULT_TIMEOUT_SECONDS = 120;
export const MAX_TIMEOUT_SECONDS = 1800;
export const MAX_OUTPUT_CHARS = 30_000;

export interface TerminalAction {
  kind: 'TerminalAction';
  command: string;
  is_input: boolean;
  timeout: number | null;
  reset: boolean;
}

/** The head and the tail of `output`, saying how much was cut between them. */
export function capOutput(output: string): string {
  if (output.length <= MAX_OUTPUT_CHARS) return output;
  const half = MAX_OUTPUT_CHARS / 2;
  const cut = output.length - MAX_OUTPUT_CHARS;
  return `${output.slice(0, half)}\n[… output cut: ${cut} characters left out of ${output.length} …]\n${output.slice(-half)}`;
}

/** The children of each process (Linux /proc), by the parent's id. */
function childrenByParent(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return children;
}

function signalAll(pids: Iterable<number>, signal: NodeJS.Signals): void {
  for (const id of pids) {
    try {
      process.kill(id, signal);
    } catch {
      // Already gone.
    }
  }
}

/** Whether a process has taken its SIGSTOP, or ended: either way it forks no more. */
function settled(id: number): boolean {
  const stat = readProcStat(id);
  return !stat || isStopped(stat) || isGone(stat);
}

/**
 * Sends `signal` to `roots` and every process below them, and resolves to them all (as they were
 * while stopped, so that a pid freed since can be told from another process's). They are
 * stopped first, round by round until a reading of /proc finds no new one: a process forked while
 * the tree was read would otherwise miss the signal and outlive a shell that ends on it. Each
 * round waits until its processes have stopped before it reads: a SIGSTOP takes effect only once
 * a fork under way has finished, and only then is the child in /proc.
 */
async function signalTree(roots: number[], signal: NodeJS.Signals): Promise<ProcStat[]> {
  const stopped = new Set<number>();
  for (let fresh = roots; fresh.length > 0;) {
    signalAll(fresh, 'SIGSTOP');
    for (const id of fresh) stopped.add(id);
    // A second at most: a process in an uninterruptible wait stops when it leaves it.
    for await (const _ of polls(constantBackoff(1, 1000))) if (fresh.every(settled)) break;
    const children = childrenByParent();
    const below = (id: number): number[] => (children.get(id) ?? []).flatMap((child) => [child, ...below(child)]);
    fresh = [...stopped].flatMap(below).filter((id) => !stopped.has(id));
  }
  const reached = [...stopped].map(readProcStat).filter((stat) => stat !== undefined);
  signalAll(stopped, signal);
  signalAll(stopped, 'SIGCONT');
  return reached;
}

/**
 * Marks, in their environment, the processes of one command: those it forks while it handles the
 * interrupt, after the tree was read, are found by it once their shell has ended and left them.
 */
const COMMAND_MARKER = 'AGENT_CONSOLE_COMMAND_ID';

/** How long an interrupted command has to end on SIGINT before it is killed. */
const INTERRUPT_GRACE_MS = 2000;

/**
 * Runs a bash command in the workspace. Each command starts a fresh shell in the working
 * directory (the SDK keeps one session; `cd` does not carry over here). The command stays in the
 * agent server's process group so pausing the sandbox pauses it too. `onOutput` gets the output
 * as it comes, unmasked.
 */
export function runTerminal(
  action: TerminalAction,
  context: ToolContext,
  signal?: AbortSignal,
  onOutput?: (chunk: string) => void,
): Promise<Observation> {
  const observation = (output: string, exitCode: number, timedOut: boolean, isError = false): Observation => ({
    kind: 'TerminalObservation',
    content: text(output),
    is_error: isError,
    command: action.command,
    exit_code: exitCode,
    timeout: timedOut,
  });
  if (action.is_input)
    return Promise.resolve(
      observation('Sending input to a running command is not supported: each command runs on its own.', -1, false, true),
    );
  const seconds = Math.min(action.timeout && action.timeout > 0 ? action.timeout : DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS);
  return new Promise((resolve) => {
    let output = '';
    let timedOut = false;
    const mark = randomUUID();
    const child = spawn('bash', ['-c', action.command], {
      cwd: context.workingDir,
      env: { ...context.env, [COMMAND_MARKER]: mark },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: string) => {
      onOutput?.(chunk);
      output += chunk;
      // Keep memory bounded for endless output: the head and a generous tail. What goes lies
      // inside the part `capOutput` leaves out, so it cuts no text that is shown.
      if (output.length > MAX_OUTPUT_CHARS * 4) output = output.slice(0, MAX_OUTPUT_CHARS) + output.slice(-MAX_OUTPUT_CHARS * 2);
    };
    // Decoded per stream, so a character split between two chunks stays whole.
    child.stdout.setEncoding('utf8').on('data', collect);
    child.stderr.setEncoding('utf8').on('data', collect);
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) void signalTree([child.pid], 'SIGKILL');
    }, seconds * 1000);
    // Stop: an interrupt, as Ctrl+C would send, then a kill for what ignores it.
    let interrupted = false;
    const interrupt = () => {
      if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
      interrupted = true;
      // The shell may end on the interrupt and leave background processes (which ignore
      // SIGINT) behind, some forked as it handled it: the kill reaches those it marked, and those
      // the interrupt reached that still are what they were (an ended one's pid may be another's).
      void signalTree([child.pid], 'SIGINT').then((reached) => {
        const kill = () => {
          const alive = reached.filter((stat) => liveProcess(stat.pid, stat.startTime));
          const marked = markedProcesses(COMMAND_MARKER, mark);
          void signalTree([...new Set([...alive, ...marked].map((stat) => stat.pid))], 'SIGKILL');
        };
        setTimeout(kill, INTERRUPT_GRACE_MS).unref();
      });
    };
    if (signal?.aborted) interrupt();
    else signal?.addEventListener('abort', interrupt, { once: true });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve(observation(`The command could not start: ${error.message}`, -1, false, true));
    });
    const finish = (code: number | null, signalName: NodeJS.Signals | null = null) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', interrupt);
      child.stdout.destroy();
      child.stderr.destroy();
      // Masked before the cut: a secret cut in two would no longer be found.
      const shown = capOutput(context.mask(output));
      if (timedOut) resolve(observation(`${shown}\n[The command timed out after ${seconds} s and was stopped.]`, -1, true, true));
      // Ended by a signal: the exit code a shell would report for it (130 for an interrupt).
      const exitCode = code ?? (signalName ? 128 + os.constants.signals[signalName] : -1);
      if (interrupted) resolve(observation(`${shown}\n[The command was interrupted: the user pressed Stop.]`, exitCode, false, true));
      else resolve(observation(shown, exitCode, false));
    };
    child.on('close', finish);
    // A background process (`server &`) may hold the output open after the shell exits.
    child.on('exit', (code, signalName) => setTimeout(() => finish(code, signalName), 200).unref());
  });
}
