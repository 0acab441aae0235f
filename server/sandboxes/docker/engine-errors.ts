import { msg } from '@lingui/core/macro';
import { Unavailable } from '../../domain-errors';

/** The HTTP status of the engine's response to a call; `undefined` when there was none (no socket). */
export const statusCode = (error: unknown): number | undefined => (error as { statusCode?: number }).statusCode;

/** The engine's own words for a refusal, or the client's for a call that never reached it. */
export const engineMessage = (error: unknown): string =>
  (error as { json?: { message?: string } }).json?.message ?? (error instanceof Error ? error.message : String(error));

/** The engine says the container is gone (404) or not in a state for it (409): nothing to do there. */
export const isGone = (error: unknown): boolean => statusCode(error) === 404 || statusCode(error) === 409;

/**
 * Any other failure of the engine, as the refusal the API responds with (503, never a 500 with a
 * stack): what could not be done, in the engine's own words. `doing` completes "could not …".
 */
export const engineFailure = (doing: string, error: unknown): Unavailable =>
  new Unavailable(msg`The Docker engine could not ${doing}: ${engineMessage(error)}`);
