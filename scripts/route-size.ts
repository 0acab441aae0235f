/**
 * How much JavaScript (gzip -9) each console page downloads when it is opened first: the entry
 * chunk and the page's own chunk, each with the chunks they import statically. Chunks loaded on
 * demand (dialogs, drawers, tooltips, notifications) are not counted. Reads the manifest of the
 * last `vite build`. With `--check` it fails when a page is over its budget (issue 14: the unit
 * is the one of OpenHands' 394,298 B before its settings page is usable). With `--why` it builds
 * again with source maps and says, for each page, which packages and folders its bytes come from.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { buildWithSourceMaps, composition } from './route-size-why';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
}

const KIB = 1024;
/** Budgets in gzip bytes: the settings page, and every other page. */
export const BUDGETS = { 'settings-page': 160 * KIB, default: 200 * KIB } as const;

const why = process.argv.includes('--why');
const dist = why ? buildWithSourceMaps() : path.resolve(import.meta.dirname, '..', 'dist');
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;

function staticClosure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) staticClosure(imported, seen);
  return seen;
}

const gzipSizeOfFile = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
const gzipSize = (key: string) => gzipSizeOfFile(manifest[key]!.file);
const kib = (bytes: number) => `${(bytes / KIB).toFixed(1)} KiB`;

const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
if (!entry) throw new Error('The manifest names no entry chunk');
const pages = Object.keys(manifest).filter((key) => manifest[key]!.isDynamicEntry && key.endsWith('-page.tsx'));
/** Pages under a layout route load the layout's chunk too (see src/app/router.tsx). */
const LAYOUTS: Record<string, string> = {
  'settings-page': 'src/app/settings-layout.tsx',
  'mcp-servers-page': 'src/app/settings-layout.tsx',
};

const check = process.argv.includes('--check');
const over: string[] = [];
console.log(`JavaScript downloaded when a page is opened first (gzip level 9):`);
for (const page of pages.sort()) {
  const name = path.basename(page, '.tsx');
  const layout = LAYOUTS[name];
  const chunks = new Set([...staticClosure(entry), ...staticClosure(page), ...(layout ? staticClosure(layout) : [])]);
  const total = [...chunks].reduce((sum, key) => sum + gzipSize(key), 0);
  const budget = name in BUDGETS ? BUDGETS[name as keyof typeof BUDGETS] : BUDGETS.default;
  const verdict = total > budget ? `OVER the budget of ${kib(budget)}` : `budget ${kib(budget)}`;
  if (total > budget) over.push(name);
  console.log(`  ${name.padEnd(20)} ${kib(total).padStart(10)}  in ${String(chunks.size).padStart(2)} files  ${verdict}`);
  if (why) {
    const files = [...chunks].map((key) => manifest[key]!.file);
    for (const [group, bytes] of composition(dist, files, gzipSizeOfFile).filter(([, bytes]) => bytes >= KIB / 2)) {
      console.log(`      ${kib(bytes).padStart(10)}  ${group}`);
    }
  }
}
if (why) fs.rmSync(dist, { recursive: true });
if (check && over.length > 0) {
  console.error(`Over budget: ${over.join(', ')}`);
  process.exitCode = 1;
}
