import { mutationOptions } from '@tanstack/react-query';
import { testSearchKey } from '../api/search';
import type { SearchKeyTestRequestInput } from '../contract/search-key-test';

/** A test of the search key as typed in the form (or the stored one), run on request. */
export const testSearchKeyMutation = () => mutationOptions({ mutationFn: (request: SearchKeyTestRequestInput) => testSearchKey(request) });
