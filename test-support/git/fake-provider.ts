import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeProvider {
  /** Base URL to use as a provider host, e.g. http://127.0.0.1:40123 */
  url: string;
  /** Paths and Authorization headers of the requests it served. */
  requests: { path: string; authorization: string | undefined }[];
  close: () => Promise<void>;
}

/**
 * A local HTTP server that plays GitHub, GitLab, Bitbucket and Azure DevOps for token checks:
 * their "who am I" endpoints return 200 for `good` tokens and the provider's 401 otherwise.
 */
export async function startFakeProvider(goodTokens: string[]): Promise<FakeProvider> {
  const requests: FakeProvider['requests'] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const authorization = req.headers.authorization;
    requests.push({ path, authorization });
    const token = authorization?.startsWith('Bearer ')
      ? authorization.slice(7)
      : Buffer.from((authorization ?? '').replace(/^Basic /, ''), 'base64')
          .toString()
          .replace(/^:/, '');
    const known = ['/api/v3/user', '/api/v4/user', '/2.0/user', '/_apis/connectionData'].includes(path);
    if (!known) return res.writeHead(404).end();
    if (goodTokens.includes(token)) return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ login: 'ada' }));
    res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Bad credentials' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
