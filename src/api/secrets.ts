import { messageSchema } from '../contract/errors';
import { type AddGitProvidersInput, type CreateSecretInput, customSecretsSchema, type UpdateSecretInput } from '../contract/secrets';
import { apiRequest } from './client';

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
