/*
 * The labels of our containers and volumes, in a file of their own: tests find what a server left
 * behind by them without loading the runtime.
 */

/** On every container and volume of a sandbox: which one it is. */
export const SANDBOX_LABEL = 'agent-console.sandbox';
/** And whose: the data dir of the server that made it (another server never touches it). */
export const DATA_DIR_LABEL = 'agent-console.data-dir';
