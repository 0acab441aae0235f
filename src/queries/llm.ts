import { mutationOptions } from '@tanstack/react-query';
import { testLlm } from '../api/llm';
import type { LlmTestRequestInput } from '../contract/llm-test';

/** A test of the LLM settings as typed in the form, run on request. */
export const testLlmMutation = () => mutationOptions({ mutationFn: (request: LlmTestRequestInput) => testLlm(request) });
