import { createHash, timingSafeEqual } from 'node:crypto';

/** The header that carries a session key, to our server and to each sandbox's agent server alike. */
export const SESSION_KEY_HEADER = 'X-Session-API-Key';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * A check of a request's key against `expected`. Both sides are hashed first, so the comparison
 * takes the same time whatever the lengths and however much of the key a guess gets right.
 */
export function sessionKeyCheck(expected: string): (given: string | string[] | undefined) => boolean {
  const expectedDigest = digest(expected);
  return (given) => typeof given === 'string' && timingSafeEqual(digest(given), expectedDigest);
}
