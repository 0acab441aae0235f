import fs from 'node:fs';
import path from 'node:path';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply } from 'fastify';

/** How a built file may be sent: its bytes as built, and the forms scripts/precompress.ts wrote beside it. */
export interface Asset {
  type: string;
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/** What the build puts in assets/. */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const readIfThere = (file: string) => fs.promises.readFile(file).catch(() => undefined);

/** One built file with its precompressed forms; undefined for a file the build does not make. */
export async function readAsset(file: string): Promise<Asset | undefined> {
  const type = TYPES[path.extname(file)];
  const identity = type && (await readIfThere(file));
  if (!type || !identity) return undefined;
  const [br, gzip] = await Promise.all([readIfThere(`${file}.br`), readIfThere(`${file}.gz`)]);
  return { type, identity, br, gzip };
}

/**
 * The build's hashed assets, read once at start: a first visit asks for many files at once, and
 * sending each from memory costs the event loop a small part of what opening and streaming a
 * file does (each in turn, before the page's entry script could arrive). Hashed
 * names never change content, so what was read stays true, and a tab opened before a new build
 * still loads its pages' chunks.
 */
export async function readAssets(assetsDir: string): Promise<Map<string, Asset>> {
  const names = await fs.promises.readdir(assetsDir).catch(() => []);
  const read = await Promise.all(names.map(async (name) => [name, await readAsset(path.join(assetsDir, name))] as const));
  return new Map(read.filter((entry): entry is [string, Asset] => entry[1] !== undefined));
}

/**
 * Sends `asset` in the encoding the request prefers among those the build made, as
 * @fastify/static's `preCompressed` chooses (`*` taken as gzip). No validators: the names are
 * hashed and the response `immutable`, so a browser never asks again.
 */
export function sendAsset(reply: FastifyReply, asset: Asset, acceptEncoding: string | undefined, cacheControl: string): FastifyReply {
  reply.header('cache-control', cacheControl).header('vary', 'accept-encoding').type(asset.type);
  const offered = (['br', 'gzip'] as const).filter((encoding) => asset[encoding]);
  const encoding = acceptEncoding && offered.length > 0 ? negotiate(acceptEncoding.toLowerCase().replaceAll('*', 'gzip'), offered) : null;
  const body = encoding === 'br' || encoding === 'gzip' ? asset[encoding] : undefined;
  if (body) reply.header('content-encoding', encoding);
  return reply.send(body ?? asset.identity);
}
