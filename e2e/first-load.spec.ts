import path from 'node:path';
import { budgetOf, firstLoads, GZIP_ONLY, scriptsLoaded, SHOWN } from '../scripts/first-load';
import { pageUrl } from '../src/app/pages';
import { expect, test } from './support/fixtures';

const DIST = path.resolve(import.meta.dirname, '..', 'dist');

// The size check counts the page's first load from the build; this is what Chromium loads.
test('the Settings page’s first load in Chromium is the JavaScript the size check counts, within its budget', async ({
  browser,
  server,
}) => {
  const counted = firstLoads(DIST).find((load) => load.name === 'settings')!;
  const context = await browser.newContext({ extraHTTPHeaders: GZIP_ONLY });
  try {
    const page = await context.newPage();
    await page.goto(`${server.url}${pageUrl('settings')}#key=${server.key}`);
    await expect(SHOWN.settings(page)).toBeVisible();
    // What the page asks for once it runs (the server's features) may be under way or done: the
    // first load is the files counted, which must all have come, with the bytes counted.
    const loaded = await scriptsLoaded(page, counted.files);
    expect(loaded.files.toSorted()).toEqual(counted.files.map((file) => `/${file}`).toSorted());
    expect(loaded.bytes).toBe(counted.bytes);
    expect(loaded.bytes).toBeLessThanOrEqual(budgetOf('settings'));
  } finally {
    await context.close();
  }
});
