import type { BrowserContext, Page } from '@playwright/test';
import { SESSION_COOKIE } from '../server/http/session-cookie';
import { expect, test as onLoopbackAddress } from './support/fixtures';

/*
 * The HttpOnly session cookie, which pages that cannot send the key header (OpenHands' web
 * client served by this server) sign in with: our console's sign-in sets it, the server's own
 * sign-in page sets it, and signing out clears it.
 */

const sessionCookie = async (context: BrowserContext) => (await context.cookies()).find((cookie) => cookie.name === SESSION_COOKIE);

/** The test server on `localhost`: on 127.0.0.1, where sandboxes are published, the server sets no cookie. */
const onLocalhost = (url: string) => url.replace('//127.0.0.1:', '//localhost:');
const test = onLoopbackAddress.extend({ baseURL: async ({ server }, use) => use(onLocalhost(server.url)) });

/** What `/api/settings` returns to a script of the page that sends no key header (the cookie goes by itself). */
const statusWithoutHeader = (page: Page) => page.evaluate(async () => (await fetch('/api/settings', { method: 'GET' })).status);

test.describe('the session cookie', () => {
  test("is set by the console's sign-in, out of scripts' reach, and cleared by signing out", async ({ page, context, server }) => {
    await page.goto('/settings');
    await page.getByLabel('Session API key').fill(server.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();

    const cookie = await sessionCookie(context);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie?.value).not.toContain(server.key);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    // First run: OpenHands' 404 "Settings not found", not a 401.
    expect(await statusWithoutHeader(page)).toBe(404);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to Agent Console' })).toBeVisible();
    await expect.poll(() => sessionCookie(context)).toBeUndefined();
    expect(await statusWithoutHeader(page)).toBe(401);
  });

  test('is set by the sign-in link', async ({ page, context, server }) => {
    await page.goto(onLocalhost(server.signInLink));
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await expect.poll(() => sessionCookie(context)).toBeDefined();
    expect(await statusWithoutHeader(page)).toBe(404);
  });

  test("is set by the server's own sign-in page, which works without any script", async ({ browser, server }) => {
    const context = await browser.newContext({ baseURL: onLocalhost(server.url), javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto('/sign-in');
      await page.getByLabel('Session API key').fill('not-the-key');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('alert')).toHaveText('That key was not accepted. Check it and try again.');
      expect(await sessionCookie(context)).toBeUndefined();

      await page.getByLabel('Session API key').fill(server.key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(`${onLocalhost(server.url)}/`);
      expect(await sessionCookie(context)).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
      // The cookie alone opens the API to this origin's pages.
      const settings = await context.request.get('/api/settings', { headers: { 'sec-fetch-site': 'same-origin' } });
      expect(settings.status()).toBe(404);
    } finally {
      await context.close();
    }
  });
});

onLoopbackAddress.describe('on 127.0.0.1', () => {
  onLoopbackAddress(
    'the console signs in with the header alone, and the sign-in page points to localhost',
    async ({ page, context, signIn, server }) => {
      await signIn(page);
      expect(await sessionCookie(context)).toBeUndefined();
      await page.goto('/sign-in');
      await expect(page.getByRole('alert')).toContainText(
        `Open ${onLocalhost(server.url)}/sign-in: on 127.0.0.1 the cookie would also reach the sandboxes`,
      );
    },
  );
});
