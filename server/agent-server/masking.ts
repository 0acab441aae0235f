/** Values shorter than this are not masked: they would blank out ordinary words. */
const MIN_SECRET_LENGTH = 4;

/**
 * Replaces every secret value by `<secret:NAME>` in text and in events, before they are stored
 * or sent. Longest values first, so a secret that contains another is replaced whole.
 */
export class Masker {
  readonly #secrets: { value: string; replacement: string }[];

  /** `secrets`: value by name (the LLM key under `LLM_API_KEY`). */
  constructor(secrets: Record<string, string | null>) {
    this.#secrets = Object.entries(secrets)
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].length >= MIN_SECRET_LENGTH)
      .map(([name, value]) => ({ value, replacement: `<secret:${name}>` }))
      .sort((a, b) => b.value.length - a.value.length);
  }

  text(text: string): string {
    let masked = text;
    for (const { value, replacement } of this.#secrets) masked = masked.replaceAll(value, replacement);
    return masked;
  }

  /** `value` with every string in it masked (keys included). */
  deep<T>(value: T): T {
    return this.#deep(value) as T;
  }

  #deep(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.#deep(item));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.text(key), this.#deep(item)]));
    }
    return value;
  }

  /**
   * How many characters at the end of `text` may be the start of a secret still arriving: a
   * stream holds them back until the next chunk shows whether it is.
   */
  unsafeTail(text: string): number {
    let tail = 0;
    for (const { value } of this.#secrets) {
      for (let length = Math.min(value.length - 1, text.length); length > tail; length--) {
        if (text.endsWith(value.slice(0, length))) {
          tail = length;
          break;
        }
      }
    }
    return tail;
  }
}

/**
 * Streamed text, masked: each `push` returns the new masked text that is safe to show. Only what
 * may be the start of a secret is held back, so a long stream costs what its chunks do.
 */
export class MaskedStream {
  #held = '';

  constructor(private readonly masker: Masker) {}

  push(chunk: string): string {
    const text = this.#held + chunk;
    // No secret crosses this cut: one that had begun before it would end the text with its start.
    const safe = text.length - this.masker.unsafeTail(text);
    this.#held = text.slice(safe);
    return this.masker.text(text.slice(0, safe));
  }
}
