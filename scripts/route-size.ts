/**
 * How much JavaScript (gzip -9) each console page loads when it is opened first, as
 * `scripts/first-load.ts` counts it (the e2e test checks that Chromium loads exactly that).
 * Chunks loaded on demand later (dialogs, drawers, tooltips, notifications) are not counted.
 * Reads the manifest of the last `vite build`. With `--check` it fails when a page is over its
 * budget (KiB of gzip, as OpenHands' 394,298 B before its settings page is usable are counted);
 * `npm test` runs that check after its build. With `--why` it builds again with source maps and
 * says, for each page, which packages and folders its bytes come from.
 */
import fs from 'node:fs';
import path from 'node:path';
import { budgetOf, firstLoads, gzipBytes } from './first-load';
import { buildWithSourceMaps, composition } from './route-size-why';

const KIB = 1024;
const why = process.argv.includes('--why');
const check = process.argv.includes('--check');
const kib = (bytes: number) => `${(bytes / KIB).toFixed(1)} KiB`;

/** Prints each page's first load (and with `--why` its make-up) from the build in `dist`; returns the pages over budget. */
function report(dist: string): string[] {
  const failing: string[] = [];
  console.log(`JavaScript a first visit loads before the page is usable (gzip level 9):`);
  for (const { name, files, bytes } of firstLoads(dist)) {
    const budget = budgetOf(name);
    const over = bytes > budget;
    if (over) failing.push(name);
    const verdict = over ? `OVER the ${kib(budget)} budget` : `within the ${kib(budget)} budget`;
    console.log(`  ${name.padEnd(20)} ${kib(bytes).padStart(10)}  in ${String(files.length).padStart(2)} files  ${verdict}`);
    if (why) {
      for (const [group, groupBytes] of composition(dist, files, (file) => gzipBytes(dist, file)).filter(([, b]) => b >= KIB / 2)) {
        console.log(`      ${kib(groupBytes).padStart(10)}  ${group}`);
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
