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
    const loaded = await scriptsLoaded(page);
    // Every file counted, and within 1 % of its bytes: what the page asks for once it runs (the
    // server's features) may be under way or done.
    expect(loaded.files).toEqual(expect.arrayContaining(counted.files.map((file) => `/${file}`)));
    expect(Math.abs(loaded.bytes - counted.bytes) / counted.bytes, `${loaded.bytes} B loaded, ${counted.bytes} B counted`).toBeLessThan(
      0.01,
    );
    expect(loaded.bytes).toBeLessThanOrEqual(budgetOf('settings'));
  } finally {
    await context.close();
  }
});
