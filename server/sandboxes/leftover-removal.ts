import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logger';

/*
 * Removing a deleted sandbox's files. A sandbox may leave files that cannot be removed (made
 * immutable, or unreadable to the server's user), and may leave very many: neither may fail the
 * delete or stall the server. So its directory is first moved into a trash directory (one
 * rename, done at once), then removed asynchronously in the background; what could not be
 * removed is logged and tried again later, and again at the next start.
 */

/** Waits between attempts at removing what is left; after the last one, the next start tries again. */
const RETRY_DELAYS_MS = [5_000, 60_000, 600_000];

export type RemoveTree = (target: string) => Promise<void>;
const removeTree: RemoveTree = (target) => fs.rm(target, { recursive: true, force: true, maxRetries: 2 });

export class LeftoverRemoval {
  readonly #running = new Set<Promise<void>>();
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(
    /** Holds directories on their way out; only the server writes there. */
    private readonly trashDir: string,
    private readonly log: Logger,
    private readonly rm: RemoveTree = removeTree,
    private readonly retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
  ) {}

  /** Moves `dir` out of the way at once and removes it in the background; never throws. */
  async remove(dir: string): Promise<void> {
    const target = path.join(this.trashDir, `${path.basename(dir)}.${randomBytes(4).toString('hex')}`);
    try {
      await fs.mkdir(this.trashDir, { recursive: true, mode: 0o700 });
      await fs.rename(dir, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // nothing stored, or removed already
      this.log.warn({ dir, err: error }, 'could not move a sandbox directory to the trash; removing it where it is');
      this.#attempt(dir, 0);
      return;
    }
    this.#attempt(target, 0);
  }

  /** Removes whatever an earlier run left in the trash, in the background. */
  async sweep(): Promise<void> {
    let names: string[];
    try {
      names = await fs.readdir(this.trashDir);
    } catch {
      return; // no trash yet
    }
    for (const name of names) this.#attempt(path.join(this.trashDir, name), 0);
  }

  #attempt(target: string, attempt: number): void {
    const run = this.rm(target).then(
      () => undefined,
      (error: unknown) => {
        const delay = this.retryDelaysMs[attempt];
        this.log.warn(
          { dir: target, err: error, attempt: attempt + 1, retryInMs: delay ?? null },
          delay === undefined
            ? 'could not remove what a deleted sandbox left; the next start tries again'
            : 'could not remove what a deleted sandbox left; trying again later',
        );
        if (delay === undefined) return;
        const timer = setTimeout(() => {
          this.#timers.delete(timer);
          this.#attempt(target, attempt + 1);
        }, delay);
        timer.unref();
        this.#timers.add(timer);
      },
    );
    this.#running.add(run);
    void run.finally(() => this.#running.delete(run));
  }

  /** Resolves once the attempts under way are done (retries that are only scheduled are not waited for). */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  /** Cancels scheduled retries (at shutdown; the next start sweeps the trash). */
  close(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}
