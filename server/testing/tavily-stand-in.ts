import http from 'node:http';
import type net from 'node:net';

/*
 * A local stand-in for Tavily's API (docs.tavily.com, "API Reference") for tests, reached through
 * TAVILY_API_URL: `POST /search` answers a search with results made from its query, and
 * `GET /usage` the key's credits; both take the key as `Authorization: Bearer <key>` and refuse
 * another with a 401 in Tavily's shape (`{"detail": {"error": …}}`, what its SDKs read). It
 * records every request.
 *
 *   const tavily = await startTavilyStandIn('tvly-test-key');
 *   … TAVILY_API_URL=tavily.url …
 *   await tavily.close();
 */

export interface TavilyRequest {
  method: string;
  path: string;
  /** The `Authorization` header as sent. */
  authorization: string | undefined;
  body: Record<string, unknown> | undefined;
}

export interface TavilyStandIn {
  /** Its base URL, for TAVILY_API_URL. */
  url: string;
  /** Every request, in order. */
  requests: TavilyRequest[];
  /** The searches, in order. */
  searches(): Record<string, unknown>[];
  close(): Promise<void>;
}

const refuse = (response: http.ServerResponse, status: number, error: string) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: { error } }));

/** What a search finds: two pages about its query, as Tavily describes results. */
export function standInResults(query: string) {
  const slug = query.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return [
    {
      title: `${query}: an overview`,
      url: `https://docs.example.com/${slug}`,
      content: `Everything about ${query}, in one page of the stand-in's.`,
      score: 0.91,
      raw_content: null,
    },
    {
      title: `${query} in the news`,
      url: `https://news.example.com/${slug}`,
      content: `What happened lately with ${query}.`,
      score: 0.74,
      raw_content: null,
    },
  ];
}

export async function startTavilyStandIn(key: string, host = '127.0.0.1'): Promise<TavilyStandIn> {
  const requests: TavilyRequest[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      const path = (request.url ?? '/').split('?', 1)[0]!;
      let body: Record<string, unknown> | undefined;
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
      } catch {
        body = undefined;
      }
      requests.push({ method: request.method ?? '', path, authorization: request.headers.authorization, body });
      if (request.headers.authorization !== `Bearer ${key}`) return refuse(response, 401, 'Unauthorized: missing or invalid API key.');
      if (request.method === 'GET' && path === '/usage') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            key: { usage: 2, limit: 1000, search_usage: 2, extract_usage: 0, crawl_usage: 0, map_usage: 0, research_usage: 0 },
            account: { current_plan: 'Researcher', plan_usage: 2, plan_limit: 1000, paygo_usage: 0, paygo_limit: null },
          }),
        );
        return;
      }
      if (request.method === 'POST' && path === '/search') {
        const query = typeof body?.query === 'string' ? body.query.trim() : '';
        if (!query) return refuse(response, 400, 'Query is missing.');
        const maxResults = typeof body?.max_results === 'number' ? body.max_results : 5;
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            query,
            follow_up_questions: null,
            answer: null,
            images: [],
            results: standInResults(query).slice(0, maxResults),
            response_time: 0.42,
            request_id: `stand-in-${requests.length}`,
          }),
        );
        return;
      }
      refuse(response, 404, 'Not Found');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://${host}:${port}`,
    requests,
    searches: () => requests.filter((request) => request.path === '/search').map((request) => request.body ?? {}),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
