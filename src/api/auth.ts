import * as z from 'zod/mini';
import { apiRequest } from './client';
import { isApiError } from './errors';
import type { Session } from './session';

/**
 * Checks credentials before they are kept: any answer but 401 means the server took the key
 * (a server without stored settings answers 404). Throws the ApiError otherwise.
 */
export async function verifySession(session: Session): Promise<void> {
  try {
    await apiRequest('/api/settings', { schema: z.unknown(), session });
  } catch (error) {
    if (isApiError(error) && error.kind === 'http' && error.status !== 401) return;
    throw error;
  }
}
