/**
 * The name sandboxes reach the host by: a container's `ExtraHosts` host-gateway, a namespaced
 * process sandbox's /etc/hosts (its network's gateway, the host's loopback).
 */
export const HOST_ALIAS = 'host.docker.internal';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * `url` as a sandbox with a network of its own reaches it: on the host's loopback (an LLM served
 * on this machine) it names the host instead, since the sandbox's loopback is its own. Anything
 * else is left as is.
 */
export function reachableFromSandbox(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url; // not ours to judge: the agent reports what fails
  }
  if (!LOOPBACK.has(parsed.hostname)) return url;
  parsed.hostname = HOST_ALIAS;
  // URL adds a slash to a bare origin; keep the user's form otherwise
  return url.endsWith('/') || parsed.pathname !== '/' ? parsed.toString() : parsed.toString().slice(0, -1);
}
