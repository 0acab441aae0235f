import { test as base, expect, type Page } from '@playwright/test';
import { type RunningServer, startServer } from './server';

interface Fixtures {
  /** Environment of the test's server, e.g. `test.use({ serverEnv: { MAX_RUNNING_SANDBOXES: '1' } })`. */
  serverEnv: Record<string, string>;
  /** A real server with an empty data dir, for this test only (the one `page` and `baseURL` use). */
  server: RunningServer;
  /** Calls the API directly with the session key (to arrange or check state). */
  api: (path: string, init?: { method?: string; body?: unknown }) => Promise<{ status: number; text: string; json: () => unknown }>;
  /** Signs in through the printed link and waits for the Settings page. */
  signIn: (page: Page) => Promise<void>;
}

export const test = base.extend<Fixtures>({
  serverEnv: [{}, { option: true }],
  server: async ({ serverEnv }, use) => {
    const server = await startServer(serverEnv);
    await use(server);
    await server.stop();
  },
  baseURL: async ({ server }, use) => use(server.url),
  api: async ({ server }, use) => {
    await use(async (path, init = {}) => {
      const response = await fetch(`${server.url}${path}`, {
        method: init.method ?? 'GET',
        headers: { 'X-Session-API-Key': server.key, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await response.text();
      return { status: response.status, text, json: () => JSON.parse(text) };
    });
  },
  signIn: async ({ server }, use) => {
    await use(async (page) => {
      await page.goto(server.signInLink);
      await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    });
  },
});

export { expect };
