/**
 * How much JavaScript (gzip) each console page downloads when it is opened first: the entry chunk
 * and the page's own chunk, each with the chunks they import statically. Chunks loaded on demand
 * (dialogs, notifications) are not counted. Reads the manifest of the last `vite build`.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
}

const dist = path.resolve(import.meta.dirname, '..', 'dist');
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;

function staticClosure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) staticClosure(imported, seen);
  return seen;
}

const gzipSize = (key: string) => zlib.gzipSync(fs.readFileSync(path.join(dist, manifest[key]!.file)), { level: 9 }).length;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
if (!entry) throw new Error('The manifest names no entry chunk');
const pages = Object.keys(manifest).filter((key) => manifest[key]!.isDynamicEntry && key.endsWith('-page.tsx'));
/** Pages under a layout route load the layout's chunk too (see src/app/router.tsx). */
const LAYOUTS: Record<string, string> = {
  'settings-page': 'src/app/settings-layout.tsx',
  'mcp-servers-page': 'src/app/settings-layout.tsx',
};

console.log(`JavaScript downloaded when a page is opened first (gzip level 9):`);
for (const page of pages.sort()) {
  const layout = LAYOUTS[path.basename(page, '.tsx')];
  const chunks = new Set([...staticClosure(entry), ...staticClosure(page), ...(layout ? staticClosure(layout) : [])]);
  const total = [...chunks].reduce((sum, key) => sum + gzipSize(key), 0);
  console.log(`  ${path.basename(page, '.tsx').padEnd(20)} ${kib(total).padStart(10)}  in ${chunks.size} files`);
}
