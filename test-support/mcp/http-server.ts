import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createToolsServer } from './tools';

export interface HttpMcpServer {
  /** The streamable-HTTP endpoint, e.g. http://127.0.0.1:40123/mcp */
  url: string;
  /** The SSE endpoint of the same server, e.g. http://127.0.0.1:40123/sse */
  sseUrl: string;
  /** Authorization headers the server received, in order. */
  authorizations: (string | undefined)[];
  /** For each request, in order, the number of the TCP connection it came on (1 for the first accepted). */
  connections: number[];
  close: () => Promise<void>;
}

/**
 * A real MCP server on a free loopback port, speaking streamable HTTP at `/mcp` (stateless: a
 * fresh MCP server per request) and SSE at `/sse` + `/messages`. With `token`, requests without
 * `Authorization: Bearer <token>` get a 401.
 */
export async function startHttpMcpServer(options: { token?: string } = {}): Promise<HttpMcpServer> {
  const authorizations: (string | undefined)[] = [];
  const connections: number[] = [];
  const connectionNumbers = new WeakMap<object, number>();
  let accepted = 0;
  const sseSessions = new Map<string, SSEServerTransport>();
  const server = http.createServer(async (req, res) => {
    authorizations.push(req.headers.authorization);
    connections.push(connectionNumbers.get(req.socket) ?? 0);
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      sseSessions.set(transport.sessionId, transport);
      res.on('close', () => sseSessions.delete(transport.sessionId));
      await createToolsServer().connect(transport);
      return;
    }
    if (url.pathname === '/messages') {
      const transport = sseSessions.get(url.searchParams.get('sessionId') ?? '');
      if (transport) await transport.handlePostMessage(req, res);
      else res.writeHead(404).end();
      return;
    }
    if (url.pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const mcp = createToolsServer();
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
  server.on('connection', (socket) => connectionNumbers.set(socket, ++accepted));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    sseUrl: `http://127.0.0.1:${port}/sse`,
    authorizations,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
