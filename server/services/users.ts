/** The reference server has one user, as OpenHands in OSS mode does. */
export const DEFAULT_USER = 'default';
