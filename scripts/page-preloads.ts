import fs from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'vite';
import { firstVisitModules, HOME, PAGE_MODULES, PAGE_NAMES, type PageName, PAGES } from '../src/app/pages.ts';
import { compressBeside } from './precompress.ts';
import { entryKey, type Manifest, pageModules, staticClosure } from './vite-manifest.ts';

/** A page's URLs: its own, and `/` for the one `/` leads to. */
const urlsOf = (name: PageName) => (name === HOME ? ['/', PAGES[name].path] : [PAGES[name].path]);

/** Where the server finds each URL's page: `[{ path, file }]`, `file` relative to the build (read by server/routes/console.ts). */
const PAGES_FILE = 'pages.json';

/** The chunk files `modules` load beyond what the entry loads anyway. */
function chunksOf(manifest: Manifest, modules: string[]): string[] {
  const loadedAnyway = staticClosure(manifest, entryKey(manifest));
  const needed = new Set<string>();
  for (const module of modules) {
    if (!manifest[module]?.isDynamicEntry) throw new Error(`page-preloads: ${module} is not loaded on demand in this build`);
    staticClosure(manifest, module, needed);
  }
  return [...needed].filter((key) => !loadedAnyway.has(key)).map((key) => manifest[key]!.file);
}

/** The app's HTML with `<link rel="modulepreload">` for `files`, so they load beside the entry rather than after it has run. */
function withPreloads(html: string, files: string[]): string {
  const links = files.map((file) => `    <link rel="modulepreload" crossorigin href="/${file}">\n`).join('');
  const headEnd = /^([ \t]*)<\/head>/m;
  if (!headEnd.test(html)) throw new Error('page-preloads: index.html has no </head> at the start of a line');
  return html.replace(headEnd, `${links}$1</head>`);
}

/**
 * Writes one HTML page per console URL (pages/<name>.html, compressed like every other file) that
 * preloads the chunks a first visit to it needs, and pages.json, which tells the server which
 * page serves which URL. Without them the browser learns of those chunks only once the entry has
 * downloaded and run, and fetches them after it.
 */
export function pagePreloads(): Plugin {
  return {
    name: 'agent-console:page-preloads',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      const manifestAsset = bundle['.vite/manifest.json'];
      const htmlAsset = bundle['index.html'];
      if (manifestAsset?.type !== 'asset' || htmlAsset?.type !== 'asset') this.error('page-preloads needs the manifest and index.html');
      const manifest = JSON.parse(String(manifestAsset.source)) as Manifest;
      const unlisted = pageModules(manifest).filter((module) => !PAGE_NAMES.some((name) => PAGE_MODULES[name].includes(module)));
      if (unlisted.length > 0) this.error(`page-preloads: no page lists ${unlisted.join(', ')} (PAGE_MODULES in src/app/pages.ts)`);
      const html = String(htmlAsset.source);
      await fs.mkdir(path.join(outDir, 'pages'), { recursive: true });
      const routes: { path: string; file: string }[] = [];
      for (const name of PAGE_NAMES) {
        const file = `pages/${name}.html`;
        await fs.writeFile(path.join(outDir, file), withPreloads(html, chunksOf(manifest, firstVisitModules(name))));
        await compressBeside(path.join(outDir, file));
        routes.push(...urlsOf(name).map((url) => ({ path: url, file })));
      }
      await fs.writeFile(path.join(outDir, PAGES_FILE), `${JSON.stringify(routes, null, 2)}\n`);
    },
  };
}
