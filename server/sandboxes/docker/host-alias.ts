/** The name containers reach the host by (`ExtraHosts` host-gateway). */
export const HOST_ALIAS = 'host.docker.internal';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * `url` as a container reaches it: on the host's loopback (an LLM served on this machine) it
 * names the host instead, since a container's loopback is its own. Anything else is left as is.
 */
export function reachableFromContainer(url: string): string {
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
