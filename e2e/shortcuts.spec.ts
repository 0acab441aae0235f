import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

const heading = (page: Page, name: string) => page.getByRole('heading', { name, level: 1 });
const blur = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

// Two-key sequences are typed in one call: their keys must come within the sequence pause,
// which a round trip per key can exceed on a busy machine.
test('keyboard shortcuts go to pages and focus the search, never while typing, and can be switched off', async ({ page, signIn }) => {
  await signIn(page);

  // The shortcuts' listener loads after the page: keys typed before it is there do nothing.
  await expect(async () => {
    await page.keyboard.type('gc');
    await expect(heading(page, 'Conversations')).toBeVisible({ timeout: 1000 });
  }).toPass();
  await page.keyboard.press('/');
  const search = page.getByLabel('Search titles');
  await expect(search).toBeFocused();
  // In a field, the keys are text.
  await page.keyboard.type('g s/');
  await expect(search).toHaveValue('g s/');
  await expect(heading(page, 'Conversations')).toBeVisible();

  await blur(page);
  await page.keyboard.type('gb');
  await expect(heading(page, 'Sandboxes')).toBeVisible();
  await page.keyboard.press('/');
  await expect(page.getByLabel('Status')).toBeFocused();

  await blur(page);
  await page.keyboard.type('gs');
  await expect(heading(page, 'Settings')).toBeVisible();

  // `?` lists them; the switch there turns them off, for good in this browser.
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog.getByRole('row', { name: /Go to Sandboxes/ })).toBeVisible();
  await dialog.getByRole('switch', { name: /^Use these shortcuts/ }).click();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(heading(page, 'Settings')).toBeVisible();
  // Switched off, not merely not loaded yet: the listener's code came once the network is quiet.
  await page.waitForLoadState('networkidle');
  await page.keyboard.type('gc');
  await page.keyboard.press('?');
  await expect(dialog).toBeHidden();
  await expect(heading(page, 'Settings')).toBeVisible();

  // The button at the top still opens the list, to turn them on again.
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(dialog.getByRole('switch', { name: /^Use these shortcuts/ })).not.toBeChecked();
});
