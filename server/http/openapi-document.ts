import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { I18n } from '@lingui/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { i18nIn } from '../i18n/server-i18n';
import { localeOf } from '../i18n/request-locale';

type Coding = 'br' | 'gzip' | 'identity';

// Brotli at quality 5: far quicker than its best (11), for a document only slightly larger.
const ENCODERS: Record<Coding, (json: string) => Buffer | string> = {
  br: (json) => brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (json) => gzipSync(json, { level: 9 }),
  identity: (json) => json,
};

/**
 * Serves the OpenAPI document (over 100 KB, read by every console on its first visit), made and
 * compressed once per language and coding on the first request that asks for them rather than per
 * request: the document does not change while the server runs (its words for a person are in the
 * request's language), and a coding or language no client asks for costs nothing.
 */
export function openApiDocumentHandler(document: (i18n: I18n) => unknown) {
  const encoded = new Map<string, Buffer | string>();
  return (request: FastifyRequest, reply: FastifyReply) => {
    const accepted = acceptedEncodings(request.headers['accept-encoding']);
    const coding: Coding = accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : 'identity';
    const locale = localeOf(request.headers['accept-language']);
    let body = encoded.get(`${locale} ${coding}`);
    if (body === undefined) encoded.set(`${locale} ${coding}`, (body = ENCODERS[coding](JSON.stringify(document(i18nIn(locale))))));
    reply.header('content-type', 'application/json; charset=utf-8').header('vary', 'accept-encoding, accept-language');
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
