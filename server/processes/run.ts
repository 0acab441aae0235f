import { endGroup, spawnGroup } from './group';
import type { ProcessUser } from './process-user';

export interface RunOptions {
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** Only the end of the output is kept beyond this (errors are at the end). */
  maxOutputBytes?: number;
  /** Aborting ends the command as a timeout does. */
  signal?: AbortSignal;
  /** Runs it as this user (the server must be root). */
  user?: ProcessUser;
}

export interface RunResult {
  /** `null` when it was killed by a signal (also on timeout). */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr as they interleaved, possibly cut at the front. */
  output: string;
  timedOut: boolean;
}

const DEFAULT_MAX_OUTPUT = 256 * 1024;
/** How long output a command's leftover background processes still write is waited for. */
const DRAIN_MS = 200;

/**
 * Runs `command` to its end in a process group of its own, with its output collected. On timeout
 * (or abort) the whole group is ended. Background processes it leaves behind keep running: they
 * belong to whoever gave the command (a sandbox ends them with itself).
 */
export function runInGroup(command: readonly string[], options: RunOptions): Promise<RunResult> {
  const [file, ...args] = command;
  if (!file) return Promise.reject(new Error('An empty command cannot be run'));
  const limit = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  return new Promise((resolve, reject) => {
    const child = spawnGroup(file, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], ...options.user });
    let output = Buffer.alloc(0);
    const collect = (chunk: Buffer) => {
      output = Buffer.concat([output, chunk]);
      if (output.length > 2 * limit) output = output.subarray(-limit);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);

    let timedOut = false;
    const stop = () => {
      timedOut = true;
      if (child.pid) void endGroup(child.pid, 1000);
    };
    const timer = setTimeout(stop, options.timeoutMs);
    options.signal?.addEventListener('abort', stop, { once: true });
    // Aborted before it started (while its caller was still on its way here): no event comes any more.
    if (options.signal?.aborted) stop();
    const cleanUp = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', stop);
    };

    child.once('error', (error) => {
      cleanUp();
      reject(error);
    });
    child.once('exit', (exitCode, signal) => {
      cleanUp();
      const finish = () => {
        clearTimeout(drain);
        child.stdout?.destroy();
        child.stderr?.destroy();
        const kept = output.length > limit ? output.subarray(-limit) : output;
        resolve({ exitCode, signal, output: kept.toString('utf8'), timedOut });
      };
      // 'close' follows once the pipes are drained, unless a background process still holds them.
      // After a turn that kept the event loop busy past the wait, its timer fires before the loop
      // reads output the command wrote before it exited: finished after the next read instead.
      const drain = setTimeout(() => setImmediate(finish), DRAIN_MS);
      child.once('close', finish);
    });
  });
}
