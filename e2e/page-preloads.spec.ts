import type { Locator, Page } from '@playwright/test';
import { firstVisitModules, PAGE_NAMES, type PageName, pageUrl, PAGES } from '../src/app/pages';
import { builtAssetPath } from './support/built-assets';
import { expect, test } from './support/fixtures';

/** What each page shows once its code has run (with the preloaded chunks). */
const SHOWN: Record<PageName, (page: Page) => Locator> = {
  settings: (page) => page.locator('input[name="llm_model"]'),
  mcp: (page) => page.getByRole('heading', { name: PAGES.mcp.title }),
  apiKeys: (page) => page.getByRole('heading', { name: PAGES.apiKeys.title }),
  teamDefaults: (page) => page.getByRole('heading', { name: PAGES.teamDefaults.title }),
  git: (page) => page.getByRole('heading', { name: PAGES.git.title, level: 1 }),
  conversations: (page) => page.getByRole('heading', { name: PAGES.conversations.title, level: 1 }),
  conversation: (page) => page.getByText('Conversation not found'),
  sandboxes: (page) => page.getByRole('heading', { name: PAGES.sandboxes.title, level: 1 }),
  specs: (page) => page.getByRole('heading', { name: PAGES.specs.title, level: 1 }),
  users: (page) => page.getByRole('heading', { name: PAGES.users.title, level: 1 }),
};

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
