/**
 * Counts failed attempts per key in a sliding window: sign-in refuses a key (an account, an
 * address) that failed `limit` times within `windowMs`. Kept per instance, in memory: an
 * attacker spread over several instances gets a few more tries, never unlimited ones.
 */
export class AttemptLimiter {
  readonly #failures = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  #recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    const recent = (this.#failures.get(key) ?? []).filter((at) => at > since);
    if (recent.length === 0) this.#failures.delete(key);
    else this.#failures.set(key, recent);
    return recent;
  }

  /** Whether any of `keys` has used up its attempts. */
  blocked(...keys: string[]): boolean {
    return keys.some((key) => this.#recent(key).length >= this.limit);
  }

  fail(...keys: string[]): void {
    for (const key of keys) this.#failures.set(key, [...this.#recent(key), this.now()]);
  }

  /** A success forgets the account's failures (not the address's). */
  clear(key: string): void {
    this.#failures.delete(key);
  }
}
