import { type Browser, chromium, type Page } from '@playwright/test';
import type { Row } from './results';
import type { BenchServers } from './servers';
import { median } from './stats';

/** What OpenHands' own web client downloads (gzip JavaScript) before its settings page is usable. */
export const OPENHANDS_JS_BYTES = 394_298;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--disable-background-networking', '--no-first-run'],
  });
}

/** A first visit: a fresh context (empty cache), signed in through the link the server prints. */
async function firstVisit<T>(browser: Browser, servers: BenchServers, pagePath: string, use: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${servers.url}${pagePath}#key=${servers.key}`);
    return await use(page);
  } finally {
    await context.close();
  }
}

interface Transfer {
  script: number;
  total: number;
}

/**
 * What the page transferred (headers and bodies as sent) once no new resource came for a second
 * (not "network idle": the conversation and sandbox pages keep a live connection open).
 */
async function transferred(page: Page): Promise<Transfer> {
  await page.waitForLoadState('load');
  let count = -1;
  for (let quiet = 0; quiet < 10;) {
    await page.waitForTimeout(100);
    const now = await page.evaluate(() => performance.getEntriesByType('resource').length);
    quiet = now === count ? quiet + 1 : 0;
    count = now;
  }
  return page.evaluate(() => {
    const entries = [
      ...performance.getEntriesByType('navigation'),
      ...performance.getEntriesByType('resource'),
    ] as PerformanceResourceTiming[];
    const script = entries.filter((entry) => entry.name.endsWith('.js')).reduce((sum, entry) => sum + entry.transferSize, 0);
    return { script, total: entries.reduce((sum, entry) => sum + entry.transferSize, 0) };
  });
}

export async function bytesOnTheWire(browser: Browser, servers: BenchServers, conversationId: string): Promise<Row[]> {
  const pages: [string, string][] = [
    ['settings', '/settings'],
    ['MCP', '/settings/mcp'],
    ['git & secrets', '/git'],
    ['conversations', '/conversations'],
    ['conversation detail', `/conversations/${conversationId}`],
    ['sandboxes', '/sandboxes'],
    ['specs', '/sandbox-specs'],
  ];
  const rows: Row[] = [];
  for (const [name, pagePath] of pages) {
    const transfer = await firstVisit(browser, servers, pagePath, transferred);
    const ratio = transfer.script / OPENHANDS_JS_BYTES;
    rows.push({
      section: '1 bytes',
      measure: name,
      value: `${transfer.script.toLocaleString('en')} B JS (${transfer.total.toLocaleString('en')} B in all)`,
      baseline: `${OPENHANDS_JS_BYTES.toLocaleString('en')} B (OpenHands)`,
      ratio,
      goal: '',
      met: null,
      data: { path: pagePath, ...transfer },
    });
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

/** Milliseconds from navigation start to the first frame that shows `ready`, first visits, median of 7 after one warm-up. */
async function navigation(browser: Browser, servers: BenchServers, pagePath: string, ready: Ready): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const context = await browser.newContext();
    try {
      await context.addInitScript({ content: watchForReady(ready) });
      const page = await context.newPage();
      await page.goto(`${servers.url}${pagePath}#key=${servers.key}`);
      const taken = await page.waitForFunction(() => (window as { benchReadyAt?: number }).benchReadyAt);
      if (i > 0) runs.push((await taken.jsonValue())!);
    } finally {
      await context.close();
    }
  }
  return median(runs);
}

export async function consoleTimings(browser: Browser, servers: BenchServers): Promise<Row[]> {
  const staticPage = await navigation(browser, servers, '/static.html', { selector: '#static' });
  const settings = await navigation(browser, servers, '/settings', { selector: 'input[name="llm_model"]', value: 'openai/gpt-4o' });
  const conversations = await navigation(browser, servers, '/conversations', {
    selector: 'table[aria-label="Conversations"] tbody tr',
  });
  const row = (measure: string, value: number): Row => ({
    section: '5 console',
    measure,
    value: `${value.toFixed(0)} ms`,
    baseline: `${staticPage.toFixed(0)} ms (static page)`,
    ratio: value / staticPage,
    goal: '≤ 3',
    met: value / staticPage <= 3,
    data: { ms: value, staticMs: staticPage },
  });
  return [row('settings form populated', settings), row('first conversation rows (100,000)', conversations)];
}
