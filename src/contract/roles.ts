/*
 * A team's roles, without schemas: the console's shell decides with them which pages a user has,
 * and schemas would be part of every page's first download.
 */

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** Whether `role` may administer users and see everyone's conversations and sandboxes. */
export const isAdminRole = (role: Role) => role === 'owner' || role === 'admin';
