import { notifications } from '@mantine/notifications';
import type { SecretField } from '../api/settings';

const LABEL: Record<SecretField, string> = {
  llm_api_key: 'LLM API key',
  search_api_key: 'Search API key',
  sandbox_api_key: 'Sandbox API key',
};

/**
 * Tells which secrets a settings save dropped (OpenHands resets what it is not sent, and the
 * console cannot send what it never sees), so a person enters them again. Stays until closed.
 */
export function notifyDroppedSecrets(fields: readonly SecretField[]): void {
  if (fields.length === 0) return;
  const names = fields.map((field) => LABEL[field]).join(', ');
  notifications.show({
    color: 'yellow',
    autoClose: false,
    title: `Enter again: ${names}`,
    message: `This server (OpenHands) does not keep the ${names} when settings are saved without it. If you use one, enter it again in Settings and save.`,
  });
}
