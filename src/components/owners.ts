import type { Owner } from '../contract/team';

/** The owner's name in a list: a user deleted since is named by their id. */
export const ownerName = (owners: readonly Owner[], id: string | null | undefined) =>
  id ? (owners.find((owner) => owner.id === id)?.name ?? `Deleted user (${id.slice(0, 8)})`) : '—';
