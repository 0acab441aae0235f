import fs from 'node:fs';
import path from 'node:path';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply } from 'fastify';

/** How a built file may be sent: its bytes as built, and the forms scripts/precompress.ts wrote beside it. */
interface Asset {
  type: string;
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};

const readIfThere = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file) : undefined);

/**
 * The build's hashed assets, read once: a first visit asks for some thirty files at once, and
 * sending each from memory costs the event loop a small part of what opening and streaming a
 * file does (~2 ms each, in turn, before the page's entry script could arrive). Hashed names
 * never change content, so what was read stays true; files a later build adds are not here and
 * are served from disk.
 */
export function readAssets(assetsDir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  if (!fs.existsSync(assetsDir)) return assets;
  for (const name of fs.readdirSync(assetsDir)) {
    const type = TYPES[path.extname(name)];
    if (!type) continue;
    const file = path.join(assetsDir, name);
    assets.set(name, { type, identity: fs.readFileSync(file), br: readIfThere(`${file}.br`), gzip: readIfThere(`${file}.gz`) });
  }
  return assets;
}

const encodings = new Negotiator({ supportedValues: ['br', 'gzip'], cache: new Map() });

/** Sends `asset` in the best encoding the request accepts (as @fastify/static does with `preCompressed`). */
export function sendAsset(reply: FastifyReply, asset: Asset, acceptEncoding: string | undefined, cacheControl: string): FastifyReply {
  reply.header('cache-control', cacheControl).header('vary', 'accept-encoding').type(asset.type);
  const encoding = acceptEncoding ? encodings.negotiate(acceptEncoding) : null;
  const body = (encoding === 'br' && asset.br) || (encoding === 'gzip' && asset.gzip) || undefined;
  if (body) reply.header('content-encoding', encoding);
  return reply.send(body ?? asset.identity);
}
