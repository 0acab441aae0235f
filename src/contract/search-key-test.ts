import * as z from 'zod/mini';

/*
 * Testing a search API key (`POST /api/search/test`, our extension): the server asks Tavily
 * whether it accepts the key; the response says so, or Tavily's refusal in words.
 */

export const searchKeyTestRequestSchema = z.object({
  /** `null`: the stored key; anything else: this key. */
  api_key: z._default(z.nullable(z.string().check(z.trim(), z.maxLength(10_000))), null),
});
export type SearchKeyTestRequest = z.output<typeof searchKeyTestRequestSchema>;
export type SearchKeyTestRequestInput = z.input<typeof searchKeyTestRequestSchema>;

export const searchKeyTestResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true) }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type SearchKeyTestResult = z.output<typeof searchKeyTestResultSchema>;
