import * as z from 'zod/mini';
import { apiRequest } from './client';
import { ApiError, isAbort } from './errors';
import type { ServerFeatures } from './server-features';

export type { ServerFeatures, ServerKind } from './server-features';

/**
 * Reads the server's features. A server that definitely has no document (404; a response that is
 * not JSON or has no `paths`) is assumed to be ours; a failure that may pass (network, 5xx) is
 * thrown, so the query tries again rather than keeping a guess for the whole session.
 */
export async function readServerFeatures(signal?: AbortSignal): Promise<ServerFeatures> {
  // Loaded beside the document, not with the first page: every page's first download would carry it.
  const reading = import('./server-features');
  try {
    const document = await apiRequest('/openapi.json', { schema: z.unknown(), signal });
    return (await reading).featuresFromDocument(document);
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'http' && error.status === 404) return (await reading).ASSUMED;
    throw error;
  }
}

/**
 * The OpenHands this console's own server forwards to (upstream mode: `GET /upstream.json` on the
 * console's origin), or `null` when it forwards nowhere (any other response).
 */
export async function readUpstream(signal?: AbortSignal): Promise<string | null> {
  try {
    const response = await fetch('/upstream.json', { headers: { accept: 'application/json' }, signal });
    if (!response.ok || !String(response.headers.get('content-type')).includes('json')) return null;
    const parsed = z.object({ url: z.string() }).safeParse(await response.json());
    return parsed.success ? parsed.data.url : null;
  } catch (error) {
    if (isAbort(error)) throw error;
    return null;
  }
}
