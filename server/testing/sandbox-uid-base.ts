let serversStarted = 0;

/**
 * A block of 100 sandbox uids of one test server's own (SANDBOX_UID_BASE). A server run as root
 * ends whatever runs as a deleted sandbox's uid, and tests run side by side in several processes:
 * servers sharing uids would end each other's sandboxes.
 */
export const ownSandboxUidBase = (): number => 10_000_000 + (process.pid % 100_000) * 1_000 + (serversStarted++ % 10) * 100;
