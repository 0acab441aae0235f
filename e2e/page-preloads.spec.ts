import type { Page } from '@playwright/test';
import { SHOWN } from '../scripts/first-load';
import { firstVisitModules, PAGE_NAMES, pageUrl } from '../src/app/pages';
import { builtAssetPath } from './support/built-assets';
import { expect, test as base } from './support/fixtures';
import { type RunningServer, startServer } from './support/server';

// Each test is a first visit, in a browser context of its own, to a server none of them changes:
// a worker's tests share one server instead of starting one each.
const test = base.extend<object, { unchangedServer: RunningServer }>({
  unchangedServer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  server: async ({ unchangedServer }, use) => use(unchangedServer),
});

for (const name of PAGE_NAMES) {
  const pagePath = pageUrl(name, { conversationId: '0123456789abcdef0123456789abcdef' });
  test(`a first visit to ${pagePath} is sent its page's code with the HTML, not after the entry has run`, async ({ page, server }) => {
    const response = await page.goto(`${server.url}${pagePath}#key=${server.key}`);
    const preloaded = [...(await response!.text()).matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map(
      (match) => match[1]!,
    );
    expect(preloaded).toEqual(expect.arrayContaining(firstVisitModules(name).map(builtAssetPath)));
    await expect(SHOWN[name](page)).toBeVisible();
  });
}

// The first data is asked for before the first render; the page finds it in the cache, and
// nothing asks for it again on the way. (Two mounts did: the app's marked every query stale, which
// asked again only when the page's query had been served, src/app/app.test.tsx checks it; and
// the conversations page refreshed its list on mount, which this catches most of the time.)
for (const [pagePath, dataPath, shown] of [
  [pageUrl('settings'), '/api/settings', SHOWN.settings],
  [pageUrl('conversations'), '/api/v1/app-conversations/search', (page: Page) => page.getByText('No conversations yet')],
] as const) {
  test(`a first visit to ${pagePath} asks for ${dataPath} once`, async ({ page, server }) => {
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === dataPath) asked.push(request.url());
    });
    await page.goto(`${server.url}${pagePath}#key=${server.key}`);
    await expect(shown(page)).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(asked).toHaveLength(1);
  });
}
