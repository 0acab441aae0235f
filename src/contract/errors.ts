import * as z from 'zod/mini';

/*
 * The non-validation error bodies of the API. OpenHands mixes three shapes: `{"detail": "..."}`
 * (FastAPI), `{"error": "..."}` and `{"message": "..."}` (its legacy settings and secrets routes).
 */
export const legacyErrorSchema = z.object({ error: z.string() });
export const messageSchema = z.object({ message: z.string() });
