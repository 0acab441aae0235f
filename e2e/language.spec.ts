import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

/** The Settings form's Language select (the label in whichever language the console shows). */
const languageSelect = (page: Page, label: string) => page.locator('select').and(page.getByLabel(label, { exact: true }));

test('the console shows in the language saved in Settings, at once and without a reload, and keeps it', async ({ page, signIn }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  // A mark a reload would wipe: the switch happens in place.
  await page.evaluate(() => Object.assign(window, { notReloaded: true }));

  await languageSelect(page, 'Language').selectOption('de');
  await page.getByRole('button', { name: 'Save changes' }).click();

  // The shell, the page and its notification, all in German.
  await expect(page.getByRole('heading', { name: 'Einstellungen', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Unterhaltungen' })).toBeVisible();
  await expect(languageSelect(page, 'Sprache')).toHaveValue('de');
  await expect(page.getByRole('button', { name: 'Abmelden' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
  expect(await page.evaluate(() => 'notReloaded' in window)).toBe(true);

  // Another page's strings come with it, in German.
  await page.getByRole('link', { name: 'Unterhaltungen' }).click();
  await expect(page.getByRole('heading', { name: 'Unterhaltungen', level: 1 })).toBeVisible();

  // A new visit starts in German (remembered), before Settings are read again.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Unterhaltungen', level: 1 })).toBeVisible();

  // And back to English.
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Einstellungen' }).click();
  // A value refused says why in German, in the words the server's 422 for it would be shown in.
  const maxIterations = page.locator('input').and(page.getByLabel('Max. Iterationen', { exact: true }));
  await maxIterations.fill('0');
  await page.getByRole('button', { name: 'Änderungen speichern' }).click();
  await expect(maxIterations).toHaveAccessibleDescription(/Muss größer oder gleich 1 sein/);
  await maxIterations.fill('');
  await languageSelect(page, 'Sprache').selectOption('en');
  await page.getByRole('button', { name: 'Änderungen speichern' }).click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Conversations' })).toBeVisible();
});

test.describe('with a French browser', () => {
  test.use({ locale: 'fr-FR' });

  test('follows the browser while Settings name no language', async ({ page, server }) => {
    await page.goto(server.signInLink);
    await expect(page.getByRole('heading', { name: 'Paramètres', level: 1 })).toBeVisible();
    await expect(languageSelect(page, 'Langue')).toHaveValue('');
  });
});

test("the server's own words come in the console's language", async ({ page, signIn, api }) => {
  await api('/api/secrets', { method: 'POST', body: { name: 'API_TOKEN', value: 'first-secret-value' } });
  await signIn(page);
  await api('/api/settings', { method: 'POST', body: { language: 'de' } });
  await page.reload();
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Git & Geheimnisse' }).click();
  await page.getByRole('tab', { name: /Benutzerdefinierte Secrets/ }).click();

  await page.getByRole('button', { name: 'Secret hinzufügen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Secret hinzufügen' });
  const field = (label: string) => dialog.locator('input, textarea').and(dialog.getByLabel(label, { exact: true }));
  // The contract's own check, run by the console before sending.
  await field('Name').fill('MY-TOKEN');
  await field('Wert').fill('another');
  await dialog.getByRole('button', { name: 'Secret hinzufügen' }).click();
  await expect(dialog.getByText('Namen von Secrets werden zu Umgebungsvariablen')).toBeVisible();
  // The server's refusal, at the name it refuses.
  await field('Name').fill('API_TOKEN');
  await dialog.getByRole('button', { name: 'Secret hinzufügen' }).click();
  await expect(dialog.getByText('Das Secret API_TOKEN existiert bereits')).toBeVisible();
  await expect(field('Name')).toHaveAttribute('aria-invalid', 'true');
});
