import * as z from 'zod/mini';

/*
 * `POST /sign-in` and `POST /sign-out` (ours): the HttpOnly session cookie a browser page uses
 * instead of the `X-Session-API-Key` header. The body may also come from an HTML form.
 */

export const signInBodySchema = z.object({ key: z.string() });
/** What both return to a script (a form gets a redirect). */
export const browserSessionResultSchema = z.object({ success: z.boolean() });
