import * as z from 'zod/mini';

/*
 * The non-validation error bodies of the API. OpenHands mixes three shapes: `{"detail": "..."}`
 * (FastAPI), `{"error": "..."}` and `{"message": "..."}` (its legacy settings and secrets routes).
 */

/** FastAPI's refusal body: 404, 409, 503 and the like. */
export const detailErrorSchema = z.object({ detail: z.string() });
export const legacyErrorSchema = z.object({ error: z.string() });
export const messageSchema = z.object({ message: z.string() });
