import http from 'node:http';

/**
 * Begins `close` while a request is in flight on a keep-alive connection: a POST's headers go,
 * the close begins once the server has them (`received`), then its body goes. Resolves with the
 * response's status once the close is done and the server has ended the connection.
 */
export async function closeDuringRequest({
  url,
  headers = {},
  body,
  received,
  close,
}: {
  url: string;
  headers?: Record<string, string>;
  body: string;
  received: Promise<unknown>;
  close: () => Promise<unknown>;
}): Promise<number> {
  const agent = new http.Agent({ keepAlive: true });
  try {
    const request = http.request(url, {
      method: 'POST',
      agent,
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
    });
    const ended = new Promise<void>((resolve) => request.on('socket', (socket) => socket.once('close', () => resolve())));
    const response = new Promise<http.IncomingMessage>((resolve, reject) => request.on('response', resolve).on('error', reject));
    request.flushHeaders();
    await received;
    const closed = close();
    request.end(body);
    const answer = await response;
    answer.resume();
    await Promise.all([closed, ended]);
    return answer.statusCode ?? 0;
  } finally {
    agent.destroy();
  }
}

/** A log destination for an app logging at `debug`, and a promise kept once it logs a request coming in. */
export function requestLog(): { destination: { write: (line: string) => void }; received: Promise<void> } {
  let seen = () => {};
  const received = new Promise<void>((resolve) => (seen = resolve));
  const destination = { write: (line: string) => void ((JSON.parse(line) as { msg?: string }).msg === 'incoming request' && seen()) };
  return { destination, received };
}
