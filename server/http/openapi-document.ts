import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

type Coding = 'br' | 'gzip' | 'identity';

// Brotli at quality 5: far quicker than its best (11), for a document only slightly larger.
const ENCODERS: Record<Coding, (json: string) => Buffer | string> = {
  br: (json) => brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (json) => gzipSync(json, { level: 9 }),
  identity: (json) => json,
};

/**
 * Serves the OpenAPI document (over 100 KB, read by every console on its first visit), made and
 * compressed once per coding on the first request that accepts it rather than per request: the
 * document does not change while the server runs, and a coding no client asks for costs nothing.
 */
export function openApiDocumentHandler(document: () => unknown) {
  let json: string | undefined;
  const encoded = new Map<Coding, Buffer | string>();
  return (request: FastifyRequest, reply: FastifyReply) => {
    const accepted = acceptedEncodings(request.headers['accept-encoding']);
    const coding: Coding = accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : 'identity';
    json ??= JSON.stringify(document());
    let body = encoded.get(coding);
    if (body === undefined) encoded.set(coding, (body = ENCODERS[coding](json)));
    reply.header('content-type', 'application/json; charset=utf-8').header('vary', 'accept-encoding');
    if (coding !== 'identity') reply.header('content-encoding', coding);
    return reply.send(body);
  };
}

/** The codings an `Accept-Encoding` header allows (`br;q=0` refuses one). */
function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    if (name && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(name);
  }
  return accepted;
}
