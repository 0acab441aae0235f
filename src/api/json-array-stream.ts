import { t } from '@lingui/core/macro';
import type * as z from 'zod/mini';
import { checked, readBody, type RequestOptions, send } from './client';
import { ApiError, errorFromResponse, isAbort } from './errors';

/**
 * Splits the text of a JSON array of objects, as it arrives, into each object's text the moment
 * its closing brace does: a streamed array (`[\n{…},\n{…}]`) gives its latest element without
 * waiting for the separator or the element after it.
 */
export class JsonArraySplitter {
  #text = '';
  #scanned = 0;
  #depth = 0;
  #inString = false;
  #escaped = false;
  #start = -1;

  /** The elements that `chunk` completed, as text, in order. */
  push(chunk: string): string[] {
    this.#text += chunk;
    const elements: string[] = [];
    for (let i = this.#scanned; i < this.#text.length; i++) {
      const char = this.#text[i];
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (char === '\\') this.#escaped = true;
        else if (char === '"') this.#inString = false;
      } else if (char === '"') {
        this.#inString = true;
      } else if (char === '{' || char === '[') {
        this.#depth++;
        if (this.#depth === 2) this.#start = i;
      } else if (char === '}' || char === ']') {
        this.#depth--;
        if (this.#depth === 1 && this.#start >= 0) {
          elements.push(this.#text.slice(this.#start, i + 1));
          this.#start = -1;
        }
      }
    }
    // Only an element under way is kept: what came before it has been read.
    const keepFrom = this.#start >= 0 ? this.#start : this.#text.length;
    this.#text = this.#text.slice(keepFrom);
    if (this.#start >= 0) this.#start = 0;
    this.#scanned = this.#text.length;
    return elements;
  }
}

/**
 * A response that is a JSON array streamed an element at a time (OpenHands' `stream-start`):
 * each element as it arrives, checked against `options.schema` (the element's). An error status
 * throws before the first, as `apiRequest` does.
 */
export async function* apiArrayStream<S extends z.ZodMiniType>(path: string, options: RequestOptions<S>): AsyncGenerator<z.output<S>> {
  const response = await send(path, { ...options, accept: 'application/json' });
  if (!response.ok || !response.body) throw errorFromResponse(response.status, response.statusText, await readBody(response));
  const splitter = new JsonArraySplitter();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read().catch((error: unknown) => {
        if (isAbort(error)) throw error;
        throw new ApiError(t`The connection to the server broke while it answered ${path}`, 'network', 0);
      });
      if (done) return;
      for (const element of splitter.push(value)) {
        let body: unknown;
        try {
          body = JSON.parse(element);
        } catch {
          throw new ApiError(t`The server's response to ${path} is not JSON`, 'invalid-response', response.status, [], element);
        }
        yield checked(path, options.schema, body, response.status);
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
