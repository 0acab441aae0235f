/**
 * A page's first load, counted one way by the size check (from the build) and in Chromium (the
 * e2e test and the bench): the JavaScript a first visit loads before the page is usable. That is
 * the entry chunk and the page's first-visit modules (its layout's, its own, what it always loads
 * beside them: `firstVisitModules`), each with every chunk it imports statically, in gzip, as
 * the server sends each file (the build's `.gz`, level 9) to a browser that takes gzip. Chromium
 * is asked for gzip (`GZIP_ONLY`) so that both count the same bytes; it would take brotli.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Locator, Page } from '@playwright/test';
import { firstVisitModules, PAGE_NAMES, PAGES, type PageName } from '../src/app/pages';
import { entryKey, type Manifest, staticClosure } from './vite-manifest';

const KIB = 1024;

/**
 * Budgets in gzip bytes (see docs/performance.md): the Settings page's; a conversation's, which
 * loads its event timeline on a first visit too; every other page's. The last two grew by 10 KiB
 * with the translated console: each page carries its strings' catalog and the i18n runtime.
 */
const BUDGETS: Partial<Record<PageName, number>> & { default: number } = {
  settings: 195 * KIB,
  conversation: 220 * KIB,
  audit: 210 * KIB,
  // Its charts load after the page (a chunk of their own).
  usage: 210 * KIB,
  default: 210 * KIB,
};

export const budgetOf = (name: PageName) => BUDGETS[name] ?? BUDGETS.default;

export interface FirstLoad {
  name: PageName;
  /** The built files, relative to the build's folder. */
  files: string[];
  /** Their gzip bytes, summed. */
  bytes: number;
}

/** The gzip bytes (level 9, as the build's `.gz`) of `file` in the build in `dist`. */
export const gzipBytes = (dist: string, file: string) => zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;

/** Each page's first load, from the build in `dist` (its manifest and files). */
export function firstLoads(dist: string): FirstLoad[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const entry = entryKey(manifest);
  return PAGE_NAMES.map((name) => {
    const chunks = new Set(staticClosure(manifest, entry));
    for (const module of firstVisitModules(name)) staticClosure(manifest, module, chunks);
    const files = [...chunks].map((key) => manifest[key]!.file);
    return { name, files, bytes: files.reduce((sum, file) => sum + gzipBytes(dist, file), 0) };
  });
}

/** A browser context's headers that have the server send gzip, as the size check counts. */
export const GZIP_ONLY = { 'accept-encoding': 'gzip' };

/** What each page shows once its code has run: it is usable. */
export const SHOWN: Record<PageName, (page: Page) => Locator> = {
  settings: (page) => page.locator('input[name="llm_model"]'),
  mcp: (page) => page.getByRole('heading', { name: PAGES.mcp.title }),
  apiKeys: (page) => page.getByRole('heading', { name: PAGES.apiKeys.title }),
  teamDefaults: (page) => page.getByRole('heading', { name: PAGES.teamDefaults.title }),
  git: (page) => page.getByRole('heading', { name: PAGES.git.title, level: 1 }),
  conversations: (page) => page.getByRole('heading', { name: PAGES.conversations.title, level: 1 }),
  conversation: (page) => page.getByRole('heading', { level: 1 }).or(page.getByText('Conversation not found')),
  sandboxes: (page) => page.getByRole('heading', { name: PAGES.sandboxes.title, level: 1 }),
  specs: (page) => page.getByRole('heading', { name: PAGES.specs.title, level: 1 }),
  users: (page) => page.getByRole('heading', { name: PAGES.users.title, level: 1 }),
  audit: (page) => page.getByRole('heading', { name: PAGES.audit.title, level: 1 }),
  usage: (page) => page.getByRole('heading', { name: PAGES.usage.title, level: 1 }),
};

/**
 * The JavaScript `page` has loaded so far, each file's path and its bytes as sent (compressed);
 * with `files` (a first load's, relative to the build's folder), only those files.
 */
export async function scriptsLoaded(page: Page, files?: string[]): Promise<{ files: string[]; bytes: number }> {
  const scripts = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
      .map((entry) => ({ path: new URL(entry.name).pathname, bytes: entry.encodedBodySize })),
  );
  const wanted = files && new Set(files.map((file) => `/${file}`));
  const counted = wanted ? scripts.filter((script) => wanted.has(script.path)) : scripts;
  return { files: counted.map((script) => script.path), bytes: counted.reduce((sum, script) => sum + script.bytes, 0) };
}
