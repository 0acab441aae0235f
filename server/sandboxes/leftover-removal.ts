import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logger';
import { runInGroup } from '../processes/run';
import { type Backoff, listedBackoff, retry } from '../retry';

/*
 * Removing a deleted sandbox's files. A sandbox may leave files that cannot be removed (made
 * immutable, or unreadable to the server's user), and may leave very many: neither may fail the
 * delete or stall the server. So its directory is first moved into a trash directory (one
 * rename, done at once), then removed asynchronously in the background; what could not be
 * removed is logged and tried again later, and again at the next start.
 */

/** Waits between attempts at removing what is left; after the last one, the next start tries again. */
const RETRY_DELAYS_MS = [5_000, 60_000, 600_000];

/** How long one attempt at removing a tree may take. */
const REMOVE_TIMEOUT_MS = 30 * 60_000;

export type RemoveTree = (target: string) => Promise<void>;
/**
 * `rm -rf` in a process of its own: walking a tree of countless files in the server would hold
 * its event loop (every request would wait).
 */
const removeTree: RemoveTree = async (target) => {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' };
  const result = await runInGroup(['rm', '-rf', '--', target], { cwd: '/', env, timeoutMs: REMOVE_TIMEOUT_MS });
  if (result.exitCode !== 0) {
    const said = result.output.trim().split('\n').slice(-3).join(' ');
    throw new Error(`rm ${result.timedOut ? 'did not finish in time' : `exited with ${result.exitCode ?? result.signal}`}: ${said}`);
  }
};

export class LeftoverRemoval {
  readonly #running = new Set<Promise<void>>();
  readonly #closing = new AbortController();
  readonly #backoff: Backoff;

  constructor(
    /** Holds directories on their way out; only the server writes there. */
    private readonly trashDir: string,
    private readonly log: Logger,
    private readonly rm: RemoveTree = removeTree,
    retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
  ) {
    this.#backoff = listedBackoff(retryDelaysMs);
  }

  /** Moves `dir` out of the way at once and removes it in the background; never throws. */
  async remove(dir: string): Promise<void> {
    const target = path.join(this.trashDir, `${path.basename(dir)}.${randomBytes(4).toString('hex')}`);
    try {
      await fs.mkdir(this.trashDir, { recursive: true, mode: 0o700 });
      await fs.rename(dir, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // nothing stored, or removed already
      this.log.warn({ dir, err: error }, 'could not move a sandbox directory to the trash; removing it where it is');
      this.#removeInBackground(dir);
      return;
    }
    this.#removeInBackground(target);
  }

  /** Removes whatever an earlier run left in the trash, in the background. */
  async sweep(): Promise<void> {
    let names: string[];
    try {
      names = await fs.readdir(this.trashDir);
    } catch {
      return; // no trash yet
    }
    for (const name of names) this.#removeInBackground(path.join(this.trashDir, name));
  }

  #removeInBackground(target: string): void {
    const waits = { signal: this.#closing.signal, keepAlive: false };
    // Given up (the next start sweeps the trash), or closed while waiting.
    retry((attempt) => this.#tracked(this.#attempt(target, attempt)), this.#backoff, waits).catch(() => undefined);
  }

  async #attempt(target: string, attempt: number): Promise<void> {
    try {
      await this.rm(target);
    } catch (error) {
      const delay = this.#backoff(attempt);
      this.log.warn(
        { dir: target, err: error, attempt, retryInMs: delay ?? null },
        delay === undefined
          ? 'could not remove what a deleted sandbox left; the next start tries again'
          : 'could not remove what a deleted sandbox left; trying again later',
      );
      throw error;
    }
  }

  #tracked(run: Promise<void>): Promise<void> {
    this.#running.add(run);
    const forget = () => this.#running.delete(run);
    run.then(forget, forget);
    return run;
  }

  /** Resolves once the attempts under way are done (retries that are only scheduled are not waited for). */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  /** Cancels scheduled retries (at shutdown; the next start sweeps the trash). */
  close(): void {
    this.#closing.abort();
  }
}
