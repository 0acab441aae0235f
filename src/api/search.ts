import { t } from '@lingui/core/macro';
import { type SearchKeyTestRequestInput, type SearchKeyTestResult, searchKeyTestResultSchema } from '../contract/search-key-test';
import { apiRequest } from './client';
import { isApiError } from './errors';

/**
 * Asks the server whether Tavily accepts this search key (the stored one for `null`). A server
 * without the endpoint (a real OpenHands) returns a failed test that says so.
 */
export async function testSearchKey(request: SearchKeyTestRequestInput): Promise<SearchKeyTestResult> {
  try {
    return await apiRequest('/api/search/test', { method: 'POST', body: request, schema: searchKeyTestResultSchema });
  } catch (error) {
    if (isApiError(error) && error.kind === 'http' && error.status === 404) {
      return { ok: false, error: t`This server cannot test search keys (it has no /api/search/test)` };
    }
    throw error;
  }
}
