import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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

/**
 * The built chunk this module is in, by its hashed name (`run-server-<hash>.js`: the hash covers
 * its content and the names, so the hashes, of the chunks it imports), or undefined when the
 * server runs from its sources.
 */
function builtChunk(): { dir: string; hash: string } | undefined {
  const file = fileURLToPath(import.meta.url);
  const hash = /-([\w-]{8})\.js$/.exec(path.basename(file))?.[1];
  return hash ? { dir: path.dirname(file), hash } : undefined;
}

/**
 * `make()`, the OpenAPI document as the app makes it, kept in a file beside the built server for
 * its next starts: making it is most of the CPU a fresh server spends on a console's first visit.
 * The file is named by the built chunk (any change to the code gives another) and by the routes
 * the app registered (`routes()`: they differ with the server's options); a build empties the
 * directory. From the sources, or where the file cannot be written, it is made at each start.
 */
export function keptBesideTheBuild<T>(make: () => T, routes: () => string[]): () => T {
  let document: T | undefined;
  return () => {
    if (document !== undefined) return document;
    const chunk = builtChunk();
    if (!chunk) return (document = make());
    const routesHash = createHash('sha256')
      .update([...routes()].sort().join('\n'))
      .digest('hex')
      .slice(0, 16);
    const file = path.join(chunk.dir, `openapi-${chunk.hash}-${routesHash}.json`);
    try {
      return (document = JSON.parse(fs.readFileSync(file, 'utf8')) as T);
    } catch {
      document = make();
    }
    // Whole or not at all: servers starting side by side may write it at once.
    const partial = `${file}.${process.pid}`;
    try {
      fs.writeFileSync(partial, JSON.stringify(document));
      fs.renameSync(partial, file);
    } catch {
      // A read-only install: made again at the next start.
      fs.rmSync(partial, { force: true });
    }
    return document;
  };
}
