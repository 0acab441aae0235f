/*
 * Limits on what a JSON body may be, checked by the HTTP layer before any route sees it: how
 * deep it nests (deeper bodies overflow the stack in the parser or the validator), how long one
 * string may be, and that every string is well-formed Unicode (a lone surrogate cannot be stored
 * or shown as sent, so it is refused rather than silently replaced).
 */

import { MAX_MESSAGE_IMAGE_BYTES } from '../../src/contract/conversations';

export const MAX_JSON_DEPTH = 64;
export const MAX_STRING_BYTES = 64 * 1024;

/** The offset where `text` opens its (MAX_JSON_DEPTH + 1)th nested level, if it does; strings are skipped. */
export function tooDeepAt(text: string, maxDepth = MAX_JSON_DEPTH): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return i;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return undefined;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export type StringProblem = { path: (string | number)[]; problem: 'too_long' | 'lone_surrogate'; max: number };

function checkString(text: string, max = MAX_STRING_BYTES): StringProblem['problem'] | undefined {
  if (LONE_SURROGATE.test(text)) return 'lone_surrogate';
  // Cheap first: a string of fewer UTF-16 units than MAX/3 cannot exceed MAX bytes in UTF-8.
  if (text.length > max / 3 && Buffer.byteLength(text, 'utf8') > max) return 'too_long';
  return undefined;
}

/** An image of a message (`…image_urls[i]`) is a data URL, far longer than any other string; its schema bounds it. */
const maxBytesAt = (path: (string | number)[]) => (path.at(-2) === 'image_urls' ? MAX_MESSAGE_IMAGE_BYTES : MAX_STRING_BYTES);

/**
 * The first string (value or key) in a parsed body that is too long or not well-formed, with its
 * path. The body is known to nest at most MAX_JSON_DEPTH levels, so the recursion is bounded.
 */
export function findStringProblem(value: unknown, path: (string | number)[] = []): StringProblem | undefined {
  if (typeof value === 'string') {
    const max = maxBytesAt(path);
    const problem = checkString(value, max);
    return problem && { path, problem, max };
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findStringProblem(value[i], [...path, i]);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = checkString(key);
      if (keyProblem) return { path: [...path, key], problem: keyProblem, max: MAX_STRING_BYTES };
      const found = findStringProblem(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}
