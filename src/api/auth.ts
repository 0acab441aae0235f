import { legacyErrorSchema } from '../contract/errors';
import { settingsResponseSchema } from '../contract/settings';
import { apiRequest } from './client';
import { ApiError, isApiError } from './errors';
import type { Session } from './session';

/**
 * Checks credentials before they are kept, by reading the settings: the server must answer them
 * (or OpenHands' own 404 "Settings not found" on a first run). Anything else, a 401 or an answer
 * that is not this API's, throws an ApiError saying what went wrong.
 */
export async function verifySession(session: Session): Promise<void> {
  try {
    await apiRequest('/api/settings', { schema: settingsResponseSchema, session });
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (error.status === 404 && legacyErrorSchema.safeParse(error.body).success) return;
    if (error.isUnauthorized || error.kind === 'network') throw error;
    throw new ApiError(
      `${session.baseUrl || 'This server'} does not answer like an Agent Conversation Service (${error.message}).`,
      error.kind,
      error.status,
    );
  }
}
