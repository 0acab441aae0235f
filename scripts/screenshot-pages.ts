// The README's tour: each page of the demo in the light and the dark scheme, one PNG each.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { HOME, pageUrl, PAGES } from '../src/app/pages';
import type { DemoConnection } from './demo-process';

export const SCHEMES = ['light', 'dark'] as const;

interface Shot {
  name: string;
  path: string;
  /** Shown once the page has what is worth seeing. */
  ready: (page: Page) => Promise<void>;
  /** The whole page, not only what fits the window. */
  fullPage?: boolean;
}

const visible = (page: Page, text: string) => page.getByText(text).first().waitFor();
const inTable = (page: Page, text: string) => page.getByRole('cell').filter({ hasText: text }).first().waitFor();

/** The Usage page once each of its charts is drawn. */
async function chartsDrawn(page: Page): Promise<void> {
  for (const chart of ['Cost per day', 'Tokens per day', 'Cost per day by user', 'Cost per day by model', 'Sandbox hours per day'])
    await page.getByRole('figure', { name: chart }).locator('.recharts-surface').first().waitFor();
  await page.getByRole('table', { name: 'Usage by model' }).waitFor();
}

/** The audit log with the seed's last change open: who changed the MCP servers, and each server before and after. */
async function entryOpen(page: Page): Promise<void> {
  // Not the newest entry: a sign-in since the seed (the demo's e2e signs in as a member) changes nothing.
  const change = page.getByRole('table', { name: 'Audit log' }).getByRole('row').filter({ hasText: 'MCP server' }).first();
  await change.getByRole('button', { name: /^Entry \d+$/ }).click();
  await page.getByRole('dialog', { name: 'Audit log entry' }).getByRole('table', { name: 'Changes' }).waitFor();
}

/** The pages the README's tour shows, in its order; `conversation` is the one on the demo model. */
export function shots(conversationId: string): Shot[] {
  return [
    { name: 'settings', path: pageUrl('settings'), ready: (page) => visible(page, 'Confirmation mode') },
    { name: 'mcp-servers', path: pageUrl('mcp'), ready: (page) => inTable(page, 'postgres-readonly') },
    { name: 'git-secrets', path: pageUrl('git'), ready: (page) => visible(page, 'gitlab.acme.example'), fullPage: true },
    { name: 'custom-secrets', path: `${pageUrl('git')}?tab=secrets`, ready: (page) => inTable(page, 'STAGING_DB_URL') },
    {
      name: 'conversations',
      path: pageUrl('conversations'),
      ready: (page) => visible(page, 'Give me a tour of the storefront repository'),
    },
    { name: 'conversation', path: pageUrl('conversation', { conversationId }), ready: (page) => visible(page, 'I am the demo model') },
    { name: 'sandboxes', path: pageUrl('sandboxes'), ready: (page) => visible(page, 'No space left on device') },
    { name: 'sandbox-specs', path: pageUrl('specs'), ready: (page) => inTable(page, 'gpu-training') },
    { name: 'usage', path: pageUrl('usage'), ready: chartsDrawn, fullPage: true },
    { name: 'audit', path: pageUrl('audit'), ready: entryOpen },
  ];
}

/** Every file `takeScreenshots` writes. */
export const screenshotFiles = () => shots('').flatMap((shot) => SCHEMES.map((scheme) => `${shot.name}-${scheme}.png`));

/** The id of the conversation on the demo model that waits for an approval. */
async function demoConversationId(demo: DemoConnection): Promise<string> {
  const page = await demo.get<{ items: { id: string }[] }>('/api/v1/app-conversations/search?title__contains=tour%20of%20the%20storefront');
  const id = page.items[0]?.id;
  if (!id) throw new Error('The demo has no conversation on the demo model');
  return id;
}

/** Shows the page in `scheme`, as the console follows the system's scheme when it changes. */
async function showScheme(page: Page, scheme: (typeof SCHEMES)[number]): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.locator(`html[data-mantine-color-scheme="${scheme}"]`).waitFor({ state: 'attached' });
}

/** Writes each page's shots into `outDir`; `log` hears of each page as it begins, so a hang says where. */
export async function takeScreenshots(
  browser: Browser,
  demo: DemoConnection,
  outDir: string,
  log: (line: string) => void = () => {},
): Promise<string[]> {
  fs.mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  const conversationId = await demoConversationId(demo);
  const context = await browser.newContext({ colorScheme: SCHEMES[0], viewport: { width: 1440, height: 900 }, baseURL: demo.url });
  try {
    const page = await context.newPage();
    await page.goto(demo.signInLink);
    await page.getByRole('heading', { name: PAGES[HOME].title, level: 1 }).waitFor();
    // Each page loaded once, and shot in each scheme: a load costs the browser more than the shot.
    for (const shot of shots(conversationId)) {
      log(`Shooting ${shot.name} (${shot.path})`);
      await page.emulateMedia({ colorScheme: SCHEMES[0] });
      await page.goto(shot.path);
      await shot.ready(page);
      for (const scheme of SCHEMES) {
        await showScheme(page, scheme);
        const file = path.join(outDir, `${shot.name}-${scheme}.png`);
        // Transitions under way, the scheme's colours among them, end at once for the shot.
        await page.screenshot({ path: file, animations: 'disabled', fullPage: shot.fullPage });
        written.push(file);
      }
    }
  } finally {
    await context.close();
  }
  return written;
}
