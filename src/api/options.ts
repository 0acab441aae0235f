import { type OptionKind, optionNamesSchema } from '../contract/options';
import { apiRequest } from './client';

/** What Settings may choose from for `kind` (`GET /api/options/<kind>`, as OpenHands serves it). */
export function fetchOptions(kind: OptionKind, signal?: AbortSignal) {
  return apiRequest(`/api/options/${kind}`, { schema: optionNamesSchema, signal });
}
