import type Docker from 'dockerode';
import { setTimeout as sleep } from 'node:timers/promises';

/** How often a pause asks whether the commands it waits for have started. */
const STARTED_POLL_MS = 20;

interface Starting {
  /** Set once the engine has made the exec. */
  exec?: Docker.Exec;
}

/**
 * Keeps a pause and the start of a command in the same container apart. With the cgroup v1
 * freezer (runc 1.1), a command whose process joins the container while it is being frozen never
 * starts, and the engine keeps the container locked from then on: no unpause, no inspect, no
 * removal, until someone thaws its cgroup by hand. So a pause waits until the commands already
 * made in its container have started, and a command is made only once no pause is under way (in a
 * paused container the engine refuses it).
 */
export class ExecStarts {
  readonly #starting = new Map<string, Set<Starting>>();
  readonly #pausing = new Map<string, Promise<unknown>>();

  /** Runs `run`, which makes a command in `containerId` and hands it to `made`, once no pause of the container is under way. */
  async run<T>(containerId: string, run: (made: (exec: Docker.Exec) => void) => Promise<T>): Promise<T> {
    for (let pausing = this.#pausing.get(containerId); pausing; pausing = this.#pausing.get(containerId))
      await pausing.catch(() => undefined);
    const entry: Starting = {};
    const starting = this.#starting.get(containerId) ?? new Set();
    this.#starting.set(containerId, starting.add(entry));
    try {
      return await run((exec) => (entry.exec = exec));
    } finally {
      starting.delete(entry);
      if (starting.size === 0) this.#starting.delete(containerId);
    }
  }

  /** Runs `pause` once every command made in `containerId` has started (or ended); commands asked for meanwhile wait for it. */
  async pause<T>(containerId: string, pause: () => Promise<T>): Promise<T> {
    const pausing = (async () => {
      while (await this.#anyStarting(containerId)) await sleep(STARTED_POLL_MS);
      return pause();
    })();
    this.#pausing.set(containerId, pausing);
    try {
      return await pausing;
    } finally {
      this.#pausing.delete(containerId);
    }
  }

  async #anyStarting(containerId: string): Promise<boolean> {
    const entries = [...(this.#starting.get(containerId) ?? [])];
    const states = await Promise.all(
      entries.map(async ({ exec }) => {
        if (!exec) return true;
        // One the engine no longer knows has ended.
        const info = await exec.inspect().catch(() => undefined);
        // The engine counts a command Running before it has started it: its pid comes once it has.
        return info !== undefined && info.ExitCode === null && !(info.Pid > 0);
      }),
    );
    return states.some(Boolean);
  }
}
