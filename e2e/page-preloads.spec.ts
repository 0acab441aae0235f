import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

/** Each page, what shows once its code has run (with the preloaded chunks), and the chunks (by name) its HTML must preload. */
const PAGES: [string, (page: Page) => Locator, string[]][] = [
  ['/settings', (page) => page.locator('input[name="llm_model"]'), ['settings-layout', 'settings-page']],
  ['/settings/mcp', (page) => page.getByRole('heading', { name: 'MCP servers' }), ['settings-layout', 'mcp-servers-page']],
  ['/git', (page) => page.getByRole('heading', { name: 'Git & secrets', level: 1 }), ['git-secrets-page']],
  ['/conversations', (page) => page.getByRole('heading', { name: 'Conversations', level: 1 }), ['conversations-page', 'prefetch']],
  [
    '/conversations/0123456789abcdef0123456789abcdef',
    (page) => page.getByText('Conversation not found'),
    ['conversation-page', 'event-timeline'],
  ],
  ['/sandboxes', (page) => page.getByRole('heading', { name: 'Sandboxes', level: 1 }), ['sandboxes-page']],
  ['/sandbox-specs', (page) => page.getByRole('heading', { name: 'Sandbox specs', level: 1 }), ['specs-page']],
];

/** `/assets/settings-page-DsWKyRBZ.js` → `settings-page` */
const chunkName = (file: string) => /\/assets\/(.+)-[\w-]{8}\.js$/.exec(file)?.[1];

for (const [pagePath, shown, chunks] of PAGES) {
  test(`a first visit to ${pagePath} is sent its page's code with the HTML, not after the entry has run`, async ({ page, server }) => {
    const response = await page.goto(`${server.url}${pagePath}#key=${server.key}`);
    const preloaded = [...(await response!.text()).matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map(
      (match) => match[1]!,
    );
    expect(preloaded.map(chunkName)).toEqual(expect.arrayContaining(chunks));
    await expect(shown(page)).toBeVisible();
  });
}

// The first data is asked for before the first render; the page finds it in the cache, and
// nothing asks for it again on the way. (Two mounts did: the app's marked every query stale, which
// asked again only when the page's query had been answered, src/app/app.test.tsx checks it; and
// the conversations page refreshed its list on mount, which this catches most of the time.)
for (const [pagePath, dataPath, shown] of [
  ['/settings', '/api/settings', (page: Page) => page.locator('input[name="llm_model"]')],
  ['/conversations', '/api/v1/app-conversations/search', (page: Page) => page.getByText('No conversations yet')],
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
