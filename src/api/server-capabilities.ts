import * as z from 'zod/mini';
import { apiRequest } from './client';
import { ASSUMED, featuresFromDocument, type ServerFeatures } from './server-features';

export type { ServerFeatures, ServerKind } from './server-features';

/** Reads the server's features once; a document that cannot be read means "assume it can". */
export async function readServerFeatures(signal?: AbortSignal): Promise<ServerFeatures> {
  try {
    return featuresFromDocument(await apiRequest('/openapi.json', { schema: z.unknown(), signal }));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    return ASSUMED;
  }
}

/**
 * The OpenHands this console's own server forwards to (upstream mode: `GET /upstream.json` on the
 * console's origin), or `null` when it forwards nowhere (any other answer).
 */
export async function readUpstream(signal?: AbortSignal): Promise<string | null> {
  try {
    const response = await fetch('/upstream.json', { headers: { accept: 'application/json' }, signal });
    if (!response.ok || !String(response.headers.get('content-type')).includes('json')) return null;
    const parsed = z.object({ url: z.string() }).safeParse(await response.json());
    return parsed.success ? parsed.data.url : null;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    return null;
  }
}
