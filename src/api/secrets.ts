import { messageSchema } from '../contract/errors';
import {
  type AddGitProvidersInput,
  type CreateSecretInput,
  customSecretsSchema,
  type GitProviderStatus,
  gitProviderStatusesSchema,
  type Provider,
  tokenCheckSchema,
  type UpdateSecretInput,
} from '../contract/secrets';
import { apiRequest } from './client';
import { ApiError } from './errors';

export function fetchCustomSecrets(signal?: AbortSignal) {
  return apiRequest('/api/secrets', { schema: customSecretsSchema, signal });
}

export function createCustomSecret(body: CreateSecretInput) {
  return apiRequest('/api/secrets', { method: 'POST', body, schema: messageSchema });
}

export function updateCustomSecret(name: string, body: UpdateSecretInput) {
  return apiRequest(`/api/secrets/${encodeURIComponent(name)}`, { method: 'PUT', body, schema: messageSchema });
}

export function deleteCustomSecret(name: string) {
  return apiRequest(`/api/secrets/${encodeURIComponent(name)}`, { method: 'DELETE', schema: messageSchema });
}

/** Replaces the stored git providers with `body.provider_tokens` (an empty token keeps a stored one). */
export function storeGitProviders(body: AddGitProvidersInput) {
  return apiRequest('/api/add-git-providers', { method: 'POST', body, schema: messageSchema });
}

export function unsetProviderTokens() {
  return apiRequest('/api/unset-provider-tokens', { method: 'POST', schema: messageSchema });
}

/**
 * Connected providers with when each token was last verified (ours); `null` from a server that
 * does not keep that (OpenHands responds 404).
 */
export async function fetchGitProviderStatuses(signal?: AbortSignal): Promise<GitProviderStatus[] | null> {
  try {
    return (await apiRequest('/api/git-providers', { schema: gitProviderStatusesSchema, signal })).providers;
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'http' && error.status === 404) return null;
    throw error;
  }
}

/** Asks the server to check the stored token with the provider now; returns the verdict. */
export function verifyGitProvider(provider: Provider) {
  return apiRequest(`/api/git-providers/${provider}/verify`, { method: 'POST', schema: tokenCheckSchema });
}
