import { t } from '@lingui/core/macro';
import type { Owner } from '../contract/team';

/** The owner's name in a list: a user deleted since is named by their id. */
export function ownerName(owners: readonly Owner[], id: string | null | undefined): string {
  if (!id) return '—';
  const shortId = id.slice(0, 8);
  return owners.find((owner) => owner.id === id)?.name ?? t`Deleted user (${shortId})`;
}
