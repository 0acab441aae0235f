/**
 * How much JavaScript (gzip -9) each console page downloads when it is opened first: the entry
 * chunk and the page's own chunk, each with the chunks they import statically. Chunks loaded on
 * demand (dialogs, drawers, tooltips, notifications) are not counted. Reads the manifest of the
 * last `vite build`. With `--check` it fails when a page is over its budget (KiB of gzip, as
 * OpenHands' 394,298 B before its settings page is usable are counted); `npm test` runs that
 * check after its build. With `--why` it builds
 * again with source maps and says, for each page, which packages and folders its bytes come from.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { LAYOUT_MODULES, PAGE_MODULES, PAGE_NAMES, PAGES } from '../src/app/pages';
import { buildWithSourceMaps, composition } from './route-size-why';
import { entryKey, type Manifest, pageModules, staticClosure } from './vite-manifest';

const KIB = 1024;

/** Budgets in gzip bytes: the settings page's, and every other page's (see docs/performance.md). */
export const BUDGETS: Record<'settings-page' | 'default', number> = {
  'settings-page': 195 * KIB,
  default: 200 * KIB,
};

const why = process.argv.includes('--why');
const check = process.argv.includes('--check');
const kib = (bytes: number) => `${(bytes / KIB).toFixed(1)} KiB`;
/** The layout route a page module sits under, whose chunk it loads too (src/app/pages.ts). */
const layoutOf = (module: string) => {
  const name = PAGE_NAMES.find((candidate) => PAGE_MODULES[candidate][0] === module);
  const layout = name && PAGES[name].layout;
  return layout && LAYOUT_MODULES[layout];
};

/** How a page's size stands against its budget, and whether `--check` fails it. */
function verdict(total: number, budget: number): { text: string; fails: boolean } {
  return total <= budget
    ? { text: `within the ${kib(budget)} budget`, fails: false }
    : { text: `OVER the ${kib(budget)} budget`, fails: true };
}

/** Prints each page's size (and with `--why` its make-up) from the build in `dist`; returns the pages that fail. */
function report(dist: string): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const closure = (key: string) => staticClosure(manifest, key);
  const gzipSizeOfFile = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
  const gzipSize = (key: string) => gzipSizeOfFile(manifest[key]!.file);

  const entry = entryKey(manifest);
  const pages = pageModules(manifest);
  const failing: string[] = [];
  console.log(`JavaScript downloaded when a page is opened first (gzip level 9):`);
  for (const page of pages.sort()) {
    const name = path.basename(page, '.tsx');
    const layout = layoutOf(page);
    const chunks = new Set([...closure(entry), ...closure(page), ...(layout ? closure(layout) : [])]);
    const total = [...chunks].reduce((sum, key) => sum + gzipSize(key), 0);
    const { text, fails } = verdict(total, name === 'settings-page' ? BUDGETS['settings-page'] : BUDGETS.default);
    if (fails) failing.push(name);
    console.log(`  ${name.padEnd(20)} ${kib(total).padStart(10)}  in ${String(chunks.size).padStart(2)} files  ${text}`);
    if (why) {
      const files = [...chunks].map((key) => manifest[key]!.file);
      for (const [group, bytes] of composition(dist, files, gzipSizeOfFile).filter(([, bytes]) => bytes >= KIB / 2)) {
        console.log(`      ${kib(bytes).padStart(10)}  ${group}`);
      }
    }
  }
  return failing;
}

const dist = why ? buildWithSourceMaps() : path.resolve(import.meta.dirname, '..', 'dist');
let failing: string[];
try {
  failing = report(dist);
} finally {
  // The build with source maps is a temporary folder of its own.
  if (why) fs.rmSync(dist, { recursive: true });
}
if (check && failing.length > 0) {
  console.error(`Over budget: ${failing.join(', ')}`);
  process.exitCode = 1;
}
