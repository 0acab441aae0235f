import { hash, timingSafeEqual } from 'node:crypto';

/** The header that carries a session key, to our server and to each sandbox's agent server alike. */
export const SESSION_KEY_HEADER = 'X-Session-API-Key';

// One call, no Hash object: it runs for every API request.
const digest = (value: string) => hash('sha256', value, 'buffer');

/**
 * A check of a request's key against `expected`. Both sides are hashed first, so the comparison
 * takes the same time whatever the lengths and however much of the key a guess gets right.
 */
export function sessionKeyCheck(expected: string): (given: string | string[] | undefined) => boolean {
  const expectedDigest = digest(expected);
  return (given) => typeof given === 'string' && timingSafeEqual(digest(given), expectedDigest);
}
