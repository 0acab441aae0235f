import type { UpdateSecretInput } from '../contract/secrets';
import { isApiError } from './errors';
import { createCustomSecret, deleteCustomSecret, updateCustomSecret } from './secrets';

/**
 * Renames, re-describes and re-values a secret. `inPlace` says whether the server changes a value
 * with `PUT /api/secrets/{name}`; OpenHands ignores `value` there (and still responds 200), so on
 * such a server a new value replaces the secret by delete-and-create, in the order that loses
 * least should a step fail:
 * - under a new name, the new secret is created first and the old one deleted after: a failure
 *   leaves the old one (or, at worst, both);
 * - under the same name, the old one must go first (a create refuses a name that exists). Should
 *   the create fail, the new value is still typed in the form, and saving again skips the delete
 *   (a secret already gone counts as deleted).
 */
export async function replaceOrUpdateSecret(name: string, changes: UpdateSecretInput, inPlace: boolean): Promise<void> {
  if (changes.value === undefined || inPlace) {
    await updateCustomSecret(name, changes);
    return;
  }
  const replacement = { name: changes.name ?? name, value: changes.value, description: changes.description };
  if (replacement.name === name) {
    await deleteSecretUnlessGone(name);
    await createCustomSecret(replacement);
  } else {
    await createCustomSecret(replacement);
    await deleteCustomSecret(name);
  }
}

/** Deletes a secret; one that is gone already counts as deleted. */
export async function deleteSecretUnlessGone(name: string): Promise<void> {
  try {
    await deleteCustomSecret(name);
  } catch (error) {
    if (!(isApiError(error) && error.status === 404)) throw error;
  }
}
