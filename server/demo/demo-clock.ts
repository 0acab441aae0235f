import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock } from '../clock';

/**
 * The demo's clock: the real time, except for what runs inside `at(date, …)` (and everything it
 * starts, in the background too), for which time runs on from `date`. So a conversation start
 * seeded 40 days back stamps its task, sandbox and conversation 40 days back, while starts
 * seeded at the same moment keep their own dates.
 */
export class DemoClock {
  readonly #past = new AsyncLocalStorage<{ from: number; realStart: number }>();

  readonly now: Clock = () => {
    const past = this.#past.getStore();
    return new Date(past ? past.from + (Date.now() - past.realStart) : Date.now());
  };

  at<T>(date: Date, run: () => T): T {
    return this.#past.run({ from: date.getTime(), realStart: Date.now() }, run);
  }
}
