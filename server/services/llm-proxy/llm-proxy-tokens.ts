import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SecretBox } from '../../secret-box';

const PREFIX = 'acllm-';

/**
 * A conversation's key to the LLM proxy: its id and an HMAC of it under a key derived from the
 * secrets key, so every instance sharing the database checks it and nothing is stored. It is all a
 * sandbox holds for its LLM: it names one conversation, and stops working when that is deleted
 * (the proxy finds no conversation).
 */
export class LlmProxyTokens {
  readonly #key: Buffer;

  constructor(box: SecretBox) {
    this.#key = box.derive('llm-proxy-token/v1');
  }

  issue(conversationId: string): string {
    return `${PREFIX}${conversationId}.${this.#mac(conversationId)}`;
  }

  /** The conversation `token` was issued for; `undefined` for anything else. */
  conversationOf(token: string | undefined): string | undefined {
    if (!token?.startsWith(PREFIX)) return undefined;
    const dot = token.lastIndexOf('.');
    if (dot < PREFIX.length) return undefined;
    const conversationId = token.slice(PREFIX.length, dot);
    const given = Buffer.from(token.slice(dot + 1));
    const expected = Buffer.from(this.#mac(conversationId));
    return given.length === expected.length && timingSafeEqual(given, expected) ? conversationId : undefined;
  }

  #mac(conversationId: string): string {
    return createHmac('sha256', this.#key).update(conversationId).digest('base64url');
  }
}
