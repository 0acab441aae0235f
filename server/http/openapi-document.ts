import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

interface Encoded {
  json: string;
  br: Buffer;
  gzip: Buffer;
}

/**
 * Serves the OpenAPI document (over 100 KB, read by every console on its first visit), compressed
 * once on the first request rather than per request: the document does not change while the
 * server runs.
 */
export function openApiDocumentHandler(document: () => unknown) {
  let encoded: Encoded | undefined;
  return (request: FastifyRequest, reply: FastifyReply) => {
    encoded ??= encode(JSON.stringify(document()));
    reply.header('content-type', 'application/json; charset=utf-8').header('vary', 'accept-encoding');
    const accepted = acceptedEncodings(request.headers['accept-encoding']);
    if (accepted.has('br')) return reply.header('content-encoding', 'br').send(encoded.br);
    if (accepted.has('gzip')) return reply.header('content-encoding', 'gzip').send(encoded.gzip);
    return reply.send(encoded.json);
  };
}

function encode(json: string): Encoded {
  return {
    json,
    br: brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(json, { level: 9 }),
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
