import { latestResourcesSchema, sandboxResourcesSchema } from '../contract/sandbox-resources';
import { type UsageQuery, usageSchema } from '../contract/usage';
import { apiDownload, apiRequest } from './client';

/** Usage and cost (ours): what the caller may see of LLM calls, sandbox time and starts, per day, user and model. */

const params = (query: UsageQuery) => {
  const search = new URLSearchParams();
  if (query.from) search.set('from', query.from);
  if (query.to) search.set('to', query.to);
  if (query.user_id) search.set('user_id', query.user_id);
  return search;
};

export function fetchUsage(query: UsageQuery, signal?: AbortSignal) {
  return apiRequest(`/api/usage?${params(query)}`, { schema: usageSchema, signal });
}

export function downloadUsageCsv(query: UsageQuery) {
  return apiDownload(`/api/usage/csv?${params(query)}`, 'usage.csv');
}

/** Each sandbox's last look at what it uses, in the order asked. */
export function fetchLatestResources(ids: string[], signal?: AbortSignal) {
  const search = new URLSearchParams(ids.map((id) => ['id', id]));
  return apiRequest(`/api/v1/sandboxes/resources?${search}`, { schema: latestResourcesSchema, signal });
}

/** What one sandbox used over the last hour, and its limits. */
export function fetchSandboxResources(id: string, signal?: AbortSignal) {
  return apiRequest(`/api/v1/sandboxes/${encodeURIComponent(id)}/resources`, { schema: sandboxResourcesSchema, signal });
}
