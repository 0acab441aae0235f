import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium } from '@playwright/test';
import { PAGE_NAMES, pageUrl, PAGES } from '../../src/app/pages';
import { budgetOf, firstLoads, GZIP_ONLY, scriptsLoaded, SHOWN } from '../first-load';
import type { Row } from './results';
import type { BenchServers } from './servers';
import { median } from './stats';

/** What OpenHands' own web client downloads (gzip JavaScript) before its settings page is usable. */
export const OPENHANDS_JS_BYTES = 394_298;

const LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--disable-background-networking', '--no-first-run'],
};

const DIST = path.resolve(import.meta.dirname, '../../dist');

export function launchChromium(): Promise<Browser> {
  return chromium.launch(LAUNCH);
}

/**
 * Each page's first load as the size check counts it (scripts/first-load.ts): the JavaScript
 * Chromium loaded, in gzip, when the page first shows it is usable, beside the size check's
 * count from the build, and against what OpenHands' client loads before its settings page is usable.
 */
export async function bytesOnTheWire(browser: Browser, servers: BenchServers, conversationId: string): Promise<Row[]> {
  const counted = new Map(firstLoads(DIST).map((load) => [load.name, load]));
  const rows: Row[] = [];
  for (const name of PAGE_NAMES) {
    const pagePath = pageUrl(name, { conversationId });
    const context = await browser.newContext({ extraHTTPHeaders: GZIP_ONLY });
    try {
      const page = await context.newPage();
      await page.goto(`${servers.url}${pagePath}#key=${servers.key}`);
      await SHOWN[name](page).first().waitFor();
      const check = counted.get(name)!;
      // The first load's files as Chromium received them; what the page asks for once it runs is not counted.
      const { bytes } = await scriptsLoaded(page, check.files);
      rows.push({
        section: '1 bytes',
        measure: PAGES[name].title,
        value: `${bytes.toLocaleString('en')} B JS gzip (the size check: ${check.bytes.toLocaleString('en')} B)`,
        baseline: `${OPENHANDS_JS_BYTES.toLocaleString('en')} B (OpenHands)`,
        ratio: bytes / OPENHANDS_JS_BYTES,
        goal: name === 'settings' ? `≤ ${budgetOf(name).toLocaleString('en')} B` : '',
        met: name === 'settings' ? bytes <= budgetOf(name) : null,
        data: { path: pagePath, bytes, sizeCheck: check.bytes },
      });
    } finally {
      await context.close();
    }
  }
  return rows;
}

const RUNS = 7;

/** What makes a page ready: an element, and for a form field the value it must show. */
interface Ready {
  selector: string;
  value?: string;
}

/**
 * Runs in the page before its own scripts: looks for `ready` at every animation frame and keeps
 * the time of the first frame that shows it. (Playwright's own waits poll at growing intervals,
 * 20 ms to 500 ms apart, and would time the polling rather than the page.) Source text, as tsx
 * would add its name helpers to a function.
 */
const watchForReady = (ready: Ready) => `{
  const ready = ${JSON.stringify(ready)};
  const check = () => {
    const element = document.querySelector(ready.selector);
    if (element && (ready.value === undefined || element.value === ready.value)) window.benchReadyAt = performance.now();
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}`;

/**
 * How a page is visited: first (a fresh incognito-like context: empty caches), or as a return,
 * the third visit in a browser profile of its own (a temporary directory): its HTTP cache serves
 * the assets, and the code cache Chromium writes on a script's second load is read on the third
 * (incognito contexts keep none).
 */
type Visit = 'first' | 'return';

/** A context for one run: the caller closes it, which also ends a profile's own browser. */
async function contextFor(browser: Browser, visit: Visit): Promise<{ context: BrowserContext; done: () => Promise<void> }> {
  if (visit === 'first') {
    const context = await browser.newContext();
    return { context, done: () => context.close() };
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-bench-profile-'));
  const context = await chromium.launchPersistentContext(profile, LAUNCH);
  return {
    context,
    done: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Milliseconds from navigation start to the first frame that shows `ready`: median of 7 after one warm-up. */
async function navigation(browser: Browser, servers: BenchServers, pagePath: string, ready: Ready, visit: Visit): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const { context, done } = await contextFor(browser, visit);
    try {
      await context.addInitScript({ content: watchForReady(ready) });
      const page = await context.newPage();
      let readyAt = 0;
      for (let visits = visit === 'first' ? 1 : 3, n = 0; n < visits; n++) {
        if (n > 0) await page.goto('about:blank');
        await page.goto(`${servers.url}${pagePath}${n === 0 ? `#key=${servers.key}` : ''}`);
        const taken = await page.waitForFunction(() => (window as { benchReadyAt?: number }).benchReadyAt);
        readyAt = (await taken.jsonValue())!;
      }
      if (i > 0) runs.push(readyAt);
    } finally {
      await done();
    }
  }
  return median(runs);
}

/**
 * Navigation, first and return visits: the floor page (React and Mantine rendering one input,
 * see floor-page/) beside a static page, and each console page beside the floor page, which is
 * what the console's navigation is judged against.
 */
export async function consoleTimings(browser: Browser, servers: BenchServers): Promise<Row[]> {
  const llmModel = { selector: 'input[name="llm_model"]', value: 'openai/gpt-4o' };
  const rows: Row[] = [];
  for (const visit of ['first', 'return'] as const) {
    const staticPage = await navigation(browser, servers, '/static.html', { selector: '#static' }, visit);
    const floor = await navigation(browser, servers, '/floor.html', llmModel, visit);
    const row = (measure: string, value: number, baseline: { name: string; ms: number }): Row => ({
      section: '5 console',
      measure: `${measure}, ${visit} visit`,
      value: `${value.toFixed(0)} ms`,
      baseline: `${baseline.ms.toFixed(0)} ms (${baseline.name})`,
      ratio: value / baseline.ms,
      goal: '',
      met: null,
      data: { ms: value, [baseline.name === 'floor' ? 'floorMs' : 'staticMs']: baseline.ms, visit },
    });
    rows.push(
      row('floor: React + Mantine, one input', floor, { name: 'static page', ms: staticPage }),
      row('settings form populated', await navigation(browser, servers, pageUrl('settings'), llmModel, visit), {
        name: 'floor',
        ms: floor,
      }),
      row(
        'first conversation rows (100,000)',
        await navigation(browser, servers, pageUrl('conversations'), { selector: 'table[aria-label="Conversations"] tbody tr' }, visit),
        { name: 'floor', ms: floor },
      ),
    );
  }
  return rows;
}
