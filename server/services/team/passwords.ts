import { msg } from '@lingui/core/macro';
import argon2 from 'argon2';
import pLimit from 'p-limit';
import { Unavailable } from '../../domain-errors';
import { DEFAULT_PASSWORD_HASH_COST, type PasswordHashCost } from './password-hash-cost';

/**
 * How many hashes run at once: each takes a thread of libuv's pool (four by default, shared with
 * file reads) and its memory, so a flood of sign-ins leaves the rest of the server answered.
 */
const HASHES_AT_ONCE = 2;
/** How many more may wait their turn; beyond that a sign-in is refused at once, asked to try again. */
const HASHES_WAITING = 16;

/** Passwords hashed and checked in a bounded queue (see `HASHES_AT_ONCE`). */
export class Passwords {
  readonly #limit = pLimit(HASHES_AT_ONCE);
  /** A hash no password matches, checked when there is no user: an unknown email takes as long as a wrong password. */
  #standIn: Promise<string> | undefined;

  readonly #options: argon2.HashOptions;

  /** Hashes at `cost`; a hash names its own cost, so one made at another cost still verifies. */
  constructor(cost: PasswordHashCost = DEFAULT_PASSWORD_HASH_COST) {
    this.#options = { type: argon2.argon2id, ...cost };
  }

  #queued<T>(work: () => Promise<T>): Promise<T> {
    if (this.#limit.pendingCount >= HASHES_WAITING) {
      return Promise.reject(new Unavailable(msg`Too many sign-ins at once: try again in a moment`));
    }
    return this.#limit(work);
  }

  hash(password: string): Promise<string> {
    return this.#queued(() => argon2.hash(password, this.#options));
  }

  /** Whether `password` matches `hash`; with no hash, the same work is done and the answer is no. */
  async matches(hash: string | null | undefined, password: string): Promise<boolean> {
    if (!hash) {
      this.#standIn ??= this.hash(`stand-in ${Math.random()}`).catch((error: unknown) => {
        this.#standIn = undefined;
        throw error;
      });
      const standIn = await this.#standIn;
      await this.#queued(() => argon2.verify(standIn, password).catch(() => false));
      return false;
    }
    return this.#queued(() => argon2.verify(hash, password).catch(() => false));
  }

  /** How many hashes run now and wait (for tests of the bound). */
  get load(): { running: number; waiting: number } {
    return { running: this.#limit.activeCount, waiting: this.#limit.pendingCount };
  }
}
