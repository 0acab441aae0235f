import type http from 'node:http';
import { originAllowed } from '../http/host-check';

/*
 * CORS as the SDK's agent server answers it, for the origins the app server allows (loopback ones
 * and its CORS_ORIGINS, passed as OH_ALLOW_CORS_ORIGINS): OpenHands' web client calls the agent
 * server from the browser with the key in a header. Preflights carry no key, so they are answered
 * before it is checked; no credentials are allowed, as no cookie is ever needed here.
 */

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

/** The origins of `OH_ALLOW_CORS_ORIGINS` (a JSON list, as the SDK reads it); none when unreadable. */
export function corsOriginsFromEnv(value: string | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(value ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((origin): origin is string => typeof origin === 'string') : [];
  } catch {
    return [];
  }
}

export function agentServerCors(extraOrigins: readonly string[]) {
  const isAllowed = originAllowed(extraOrigins);
  return {
    /**
     * Answers a preflight (200 for an allowed origin, 400 otherwise) and says so; otherwise adds
     * the allowed origin to the response to come.
     */
    handled(request: http.IncomingMessage, response: http.ServerResponse): boolean {
      const origin = request.headers.origin;
      const allowed = isAllowed(origin);
      if (allowed) {
        response.setHeader('access-control-allow-origin', origin!);
        response.setHeader('vary', 'Origin');
      }
      const preflight =
        request.method === 'OPTIONS' && origin !== undefined && request.headers['access-control-request-method'] !== undefined;
      if (!preflight) return false;
      if (!allowed) {
        response.writeHead(400, { 'content-type': 'text/plain' }).end('Disallowed CORS origin');
        return true;
      }
      response
        .writeHead(200, {
          'access-control-allow-methods': ALLOWED_METHODS,
          'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '',
          'access-control-max-age': '600',
          'content-length': '0',
        })
        .end();
      return true;
    },
  };
}
