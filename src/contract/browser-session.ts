import * as z from 'zod/mini';

/*
 * `POST /sign-in` and `POST /sign-out` (ours): the HttpOnly session cookie a browser page uses
 * instead of the `X-Session-API-Key` header. The body may also come from an HTML form.
 */

/** A team member's email (as typed: the server compares it trimmed and lower-cased) and password. */
export const passwordSignInSchema = z.object({ email: z.string().check(z.maxLength(254)), password: z.string().check(z.maxLength(256)) });

/** The session key (or an API key), or a team member's email and password. */
export const signInBodySchema = z.union([z.object({ key: z.string() }), passwordSignInSchema]);
export type SignInBody = z.input<typeof signInBodySchema>;
/** What both return to a script (a form gets a redirect). */
export const browserSessionResultSchema = z.object({ success: z.boolean() });
