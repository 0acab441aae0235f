import type http from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type * as z from 'zod/mini';
import { laxSafeParse } from '../http/lax-input';
import { toValidationDetail } from '../http/validation-detail';

/*
 * A small router for the agent server: routes by method and path pattern (`:name` segments),
 * JSON bodies checked with the contract, FastAPI-shaped errors. It stays dependency-free so the
 * agent server starts quickly inside a sandbox.
 */

export interface Request {
  params: Record<string, string>;
  query: URLSearchParams;
  /** The JSON body; `undefined` for a route that reads `raw` itself. */
  body: unknown;
  headers: http.IncomingHttpHeaders;
  /** The request itself, unread for a route added with `{ rawBody: true }` (an upload). */
  raw: http.IncomingMessage;
}

/** A JSON body, or a stream sent as it comes with its own headers (a download). */
export type RouteResponse = { status?: number; body: unknown } | { status?: number; stream: Readable; headers: Record<string, string> };

type Handler = (request: Request) => Promise<RouteResponse> | RouteResponse;

/** A response a handler throws: status and body as they are. */
export class HttpResponseError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

const MAX_BODY = 1024 * 1024;

/** `schema`'s output for `value`, or a 422 as FastAPI words it. */
export function parse<S extends z.ZodMiniType>(schema: S, value: unknown, where: 'body' | 'query'): z.output<S> {
  if (where === 'body' && (value === undefined || value === null)) {
    throw new HttpResponseError(422, { detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] });
  }
  // OpenHands' agent server is Pydantic too: its lax numbers and booleans (`limit=5`, `"true"`) are taken.
  const result = laxSafeParse(schema, value);
  if (!result.success) throw new HttpResponseError(422, { detail: toValidationDetail(result.issues, [where]) });
  return result.data;
}

async function readBody(request: http.IncomingMessage, maxBody: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBody) throw new HttpResponseError(413, { detail: 'Request body is too large' });
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpResponseError(422, { detail: [{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {} }] });
  }
}

interface Route {
  method: string;
  parts: string[];
  handler: Handler;
  rawBody: boolean;
  maxBody: number;
}

export class Router {
  readonly #routes: Route[] = [];

  /**
   * `pattern`'s segments are literal, `:name` (one segment) or, last, `*name`: the rest of the
   * path, slashes included (a file path: `/api/file/download//workspace/a.txt`). A JSON body over
   * `maxBody` bytes is refused (413).
   */
  add(method: string, pattern: string, handler: Handler, { rawBody = false, maxBody = MAX_BODY } = {}): this {
    this.#routes.push({ method, parts: pattern.split('/'), handler, rawBody, maxBody });
    return this;
  }

  #match(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
    const parts = path.split('/');
    for (const route of this.#routes) {
      if (route.method !== method) continue;
      const rest = route.parts.at(-1)?.startsWith('*') ? route.parts.length - 1 : undefined;
      if (rest === undefined ? route.parts.length !== parts.length : parts.length <= rest) continue;
      const params: Record<string, string> = {};
      const matches = route.parts.every((part, i) => {
        if (i === rest) {
          params[part.slice(1)] = parts.slice(i).map(decodeURIComponent).join('/');
          return true;
        }
        if (part.startsWith(':')) {
          params[part.slice(1)] = decodeURIComponent(parts[i] ?? '');
          return true;
        }
        return part === parts[i];
      });
      if (matches) return { route, params };
    }
    return undefined;
  }

  /** Responds to `request`; `false` when no route matches (the caller responds with 404). */
  async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<boolean> {
    const url = new URL(request.url ?? '/', 'http://agent-server');
    let found: { route: Route; params: Record<string, string> } | undefined;
    try {
      found = this.#match(request.method ?? 'GET', url.pathname);
    } catch {
      // A segment that is no valid percent-encoding (`%zz`) names nothing here.
      return false;
    }
    if (!found) return false;
    const { route, params } = found;
    let result: RouteResponse;
    try {
      const body = request.method === 'GET' || route.rawBody ? undefined : await readBody(request, route.maxBody);
      result = await route.handler({ params, query: url.searchParams, body, headers: request.headers, raw: request });
    } catch (error) {
      if (error instanceof HttpResponseError) result = { status: error.status, body: error.body };
      else {
        console.error('agent-server: request failed', error);
        result = { status: 500, body: { detail: 'Internal Server Error' } };
      }
    }
    if ('stream' in result) {
      response.writeHead(result.status ?? 200, result.headers);
      // A client that goes away mid-download ends the stream; nothing more to say to it.
      await pipeline(result.stream, response).catch(() => response.destroy());
    } else send(response, result.status ?? 200, result.body);
    return true;
  }
}

export function send(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
