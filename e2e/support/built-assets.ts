import fs from 'node:fs';
import path from 'node:path';
import type { Manifest } from '../../scripts/vite-manifest';

const MANIFEST = path.resolve(import.meta.dirname, '../../dist/.vite/manifest.json');

/**
 * The URL path of the file the build made of a source module (`src/...`): chunks are named by
 * their content hash alone, so a test finds a page's or a lazily loaded part's file here.
 */
export function builtAssetPath(module: string): string {
  const manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Manifest;
  const chunk = manifest[module];
  if (!chunk) throw new Error(`The build's manifest has no chunk for ${module}`);
  return `/${chunk.file}`;
}
