import type { Locator } from '@playwright/test';
import { builtAssetPath } from './support/built-assets';
import { expect, test } from './support/fixtures';

/*
 * The shell around every page: notifications that cover no control, and a page whose code the
 * server cannot deliver failing inside the shell (navigation kept, retry) instead of replacing it.
 */

/**
 * The names of visible controls outside `notice` whose boxes `notice` overlaps, read in one look
 * in the page: the notifications close by themselves, and a control list read one round trip at
 * a time could lose an item meanwhile.
 */
function controlsCoveredBy(notice: Locator): Promise<string[]> {
  return notice.evaluate((container) => {
    const box = container.getBoundingClientRect();
    const overlaps = (other: DOMRect) =>
      box.left < other.right && other.left < box.right && box.top < other.bottom && other.top < box.bottom;
    return Array.from(document.querySelectorAll<HTMLElement>('button, a, input, [role="tab"]'))
      .filter(
        (control) =>
          !container.contains(control) &&
          control.checkVisibility({ visibilityProperty: true }) &&
          overlaps(control.getBoundingClientRect()),
      )
      .map((control) => control.getAttribute('aria-label') ?? control.innerText);
  });
}

test("a notification covers no control: not Sign out, not the page's main button, not the navigation", async ({ page, signIn }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Git & secrets' }).click();
  await page.getByRole('tab', { name: /Custom secrets/ }).click();
  for (const name of ['FIRST_TOKEN', 'SECOND_TOKEN']) {
    await page.getByRole('button', { name: 'Add secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add secret' });
    await dialog
      .locator('input')
      .and(dialog.getByLabel('Name', { exact: true }))
      .fill(name);
    await dialog
      .locator('input, textarea')
      .and(dialog.getByLabel('Value', { exact: true }))
      .fill('a-value');
    await dialog.getByRole('button', { name: 'Add secret' }).click();
    await expect(dialog).toBeHidden();
  }
  const notices = page.getByRole('alert').filter({ hasText: 'Secret added' });
  await expect(notices).toHaveCount(2);
  for (const notice of await notices.all()) expect(await controlsCoveredBy(notice)).toEqual([]);
});

test('a page whose code cannot be fetched fails inside the shell, says the server is unreachable, and retries', async ({
  page,
  signIn,
}) => {
  await signIn(page);
  const specsPage = `**${builtAssetPath('src/features/sandboxes/specs-page.tsx')}`;
  await page.route(specsPage, (route) => route.abort('connectionrefused'));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sandbox specs' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Server unreachable' });
  await expect(alert).toBeVisible();
  // The shell stays: navigation and Sign out still there and working.
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

  await page.unroute(specsPage);
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { name: 'Sandbox specs', level: 1 })).toBeVisible();

  // Another page still opens from the navigation after a failure.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Git & secrets' }).click();
  await expect(page.getByRole('heading', { name: 'Git & secrets', level: 1 })).toBeVisible();
});
