import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';

/*
 * Which names the server responds to (the `Host` header) and which browser origins may call its
 * API. A page on an attacker's domain that rebinds its name to 127.0.0.1 sends its own name as
 * Host: serving only known names keeps such pages away from every route, the open ones too.
 */

/** `localhost`, `*.localhost` (browsers resolve these to loopback themselves), 127.0.0.0/8 and ::1. */
export function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1';
}

/** The name part of a Host header value: `example.com:3000` → `example.com`, `[::1]:80` → `::1`. */
export function hostnameOf(host: string): string {
  const ipv6 = /^\[([^\]]*)\](?::\d*)?$/.exec(host);
  if (ipv6) return ipv6[1]!.toLowerCase();
  return host.replace(/:\d*$/, '').toLowerCase();
}

/** A checker for Host header values: loopback names plus `extra` (names or addresses, ports ignored). */
export function hostAllowed(extra: readonly string[]): (host: string | undefined) => boolean {
  // A bare IPv6 address (HOST=::1) has colons that are not a port.
  const allowed = new Set(extra.filter(Boolean).map((name) => (isIP(name) === 6 ? name.toLowerCase() : hostnameOf(name))));
  return (host) => {
    if (!host) return false;
    const name = hostnameOf(host);
    return isLoopbackName(name) || allowed.has(name);
  };
}

/** Browser origins that may call the API: http(s) on a loopback name (a console on another local port), and `extra`. */
export function originAllowed(extra: readonly string[]): (origin: string | undefined) => boolean {
  return (origin) => {
    if (!origin) return false;
    if (extra.includes(origin)) return true;
    try {
      const url = new URL(origin);
      return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackName(url.hostname);
    } catch {
      return false;
    }
  };
}

/** Verdicts cached per Host value: a client sends the same one on every request. Bounded, as the values are the clients'. */
const MAX_CACHED_VERDICTS = 64;

/** Responds with 400 to any request whose Host is not one of the server's names, before anything else runs. */
export function registerHostCheck(app: FastifyInstance, extraHosts: readonly string[]): void {
  const allowed = hostAllowed(extraHosts);
  const verdicts = new Map<string, boolean>();
  const isAllowed = (host: string | undefined) => {
    if (host === undefined) return false;
    let verdict = verdicts.get(host);
    if (verdict === undefined) {
      if (verdicts.size >= MAX_CACHED_VERDICTS) verdicts.clear();
      verdicts.set(host, (verdict = allowed(host)));
    }
    return verdict;
  };
  // A hook with a callback, not a promise: it runs for every request.
  app.addHook('onRequest', (request, reply, done) => {
    if (isAllowed(request.headers.host)) return done();
    request.log.info({ host: request.headers.host?.slice(0, 100) }, 'refused a request for an unknown host');
    reply.status(400).send({ detail: 'Invalid host header' });
  });
}
