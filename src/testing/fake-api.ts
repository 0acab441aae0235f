import { QueryClient } from '@tanstack/react-query';
import { vi } from 'vitest';
import { signIn } from '../api/session';

/*
 * A stand-in for the server in unit tests: `fetch` is stubbed with handlers by "METHOD /path"
 * (the path without its query), and every request is recorded. Unknown routes respond 404.
 */

export interface RecordedRequest {
  method: string;
  /** Path and query, as the console sent it. */
  url: string;
  body: unknown;
}

const BASE_URL = 'http://api.test';

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export function fakeApi(routes: Record<string, Handler>) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = String(input).replace(BASE_URL, '');
    const method = init?.method ?? 'GET';
    const request = { method, url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
    requests.push(request);
    const handler = routes[`${method} ${url.split('?')[0]}`];
    return handler ? handler(request) : json(404, { detail: 'Not Found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  signIn({ apiKey: 'test-key', baseUrl: BASE_URL });
  return { requests, calls: () => requests.map(({ method, url }) => `${method} ${url}`) };
}

/** A client as the app makes it, but without retries, so a failure shows at once. */
export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

/** A promise and the functions that settle it, to hold a request while a test looks at the cache. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
