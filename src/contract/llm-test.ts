import { msg } from '@lingui/core/macro';
import * as z from 'zod/mini';
import { httpUrlProblem, rule } from './rules';

/*
 * Testing the LLM settings as typed in the form (`POST /api/llm/test`, our extension): one tiny
 * request to the model; the response is its reply or the provider's refusal in words.
 */

export const LLM_TEST_SECONDS = 20;

export const llmTestRequestSchema = z.object({
  model: z.string().check(
    z.trim(),
    z.maxLength(200),
    rule((model: string) => (model === '' ? msg`Choose a model to test` : undefined)),
  ),
  /** `null`: the provider's own endpoint. */
  base_url: z._default(z.nullable(z.string().check(z.trim(), z.maxLength(2000), rule(httpUrlProblem))), null),
  /** `null`: the stored key; `""`: no key at all; anything else: this key. */
  api_key: z._default(z.nullable(z.string().check(z.maxLength(10_000))), null),
});
export type LlmTestRequest = z.output<typeof llmTestRequestSchema>;
export type LlmTestRequestInput = z.input<typeof llmTestRequestSchema>;

export const llmTestResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), model: z.string(), reply: z.string() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type LlmTestResult = z.output<typeof llmTestResultSchema>;
