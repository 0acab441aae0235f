import Docker from 'dockerode';
import { ConfigError } from '../../config';

/** The Engine API version we speak: Debian's docker.io 20.10; newer engines still serve it. */
const API_VERSION = 'v1.41';
const DEFAULT_SOCKET = '/var/run/docker.sock';
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A client for the engine DOCKER_HOST names (its default socket when unset). An engine on another
 * machine is refused: sandboxes are published on 127.0.0.1 and reached without TLS.
 */
export function dockerFromEnv(dockerHost: string | undefined): Docker {
  const host = dockerHost?.trim();
  if (!host) return new Docker({ socketPath: DEFAULT_SOCKET, version: API_VERSION });
  if (host.startsWith('unix://')) return new Docker({ socketPath: host.slice('unix://'.length), version: API_VERSION });
  let url: URL | undefined;
  try {
    url = new URL(host);
  } catch {
    // not a URL: refused below
  }
  if (url?.protocol === 'tcp:' && LOOPBACK.has(url.hostname)) {
    return new Docker({
      protocol: 'http',
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: Number(url.port || 2375),
      version: API_VERSION,
    });
  }
  throw new ConfigError(
    `DOCKER_HOST=${host} is not an engine on this machine; SANDBOX_RUNTIME=docker needs a local one (unix:///var/run/docker.sock, or tcp://127.0.0.1:PORT)`,
  );
}

/** Resolves when the engine responds; a clear reason otherwise (the server then refuses to start). */
export async function checkEngine(docker: Docker): Promise<void> {
  try {
    await docker.ping();
  } catch (error) {
    throw new ConfigError(
      `SANDBOX_RUNTIME=docker but no Docker engine responds (${error instanceof Error ? error.message : String(error)}); start dockerd, or use SANDBOX_RUNTIME=process`,
    );
  }
}
