import { t } from '@lingui/core/macro';
import { type LlmTestRequestInput, type LlmTestResult, llmTestResultSchema } from '../contract/llm-test';
import { apiRequest } from './client';
import { isApiError } from './errors';

/**
 * Asks the server to send one tiny request to the LLM with these settings. A server without the
 * endpoint (a real OpenHands) returns a failed test that says so.
 */
export async function testLlm(request: LlmTestRequestInput): Promise<LlmTestResult> {
  try {
    return await apiRequest('/api/llm/test', { method: 'POST', body: request, schema: llmTestResultSchema });
  } catch (error) {
    if (isApiError(error) && error.kind === 'http' && error.status === 404) {
      return { ok: false, error: t`This server cannot test LLM settings (it has no /api/llm/test)` };
    }
    throw error;
  }
}
