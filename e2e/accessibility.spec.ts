import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

/** Axe's serious and critical findings on what the page shows now, as readable lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  const scan = await new AxeBuilder({ page }).analyze();
  return scan.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target} ${n.failureSummary}`).join(', ')}`);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`in the ${colorScheme} scheme`, () => {
    test.use({ colorScheme });

    test('the sign-in screen and the Settings page have no serious accessibility violations', async ({ page, signIn }) => {
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Sign in to Agent Console' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      await signIn(page);
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('every other page, with content and with its dialogs open, has none either', async ({ page, signIn, api }) => {
      await api('/api/settings', {
        method: 'POST',
        body: { mcp_config: { stdio_servers: [{ name: 'files', command: 'npx', args: ['-y', 'server-files'], env: { ROOT: '/tmp' } }] } },
      });
      await api('/api/secrets', { method: 'POST', body: { name: 'API_TOKEN', value: 'a-value', description: 'Staging' } });
      await api('/api/add-git-providers', { method: 'POST', body: { provider_tokens: { github: { token: 'ghp_example', host: null } } } });
      await signIn(page);

      await page.getByRole('tab', { name: 'MCP servers' }).click();
      await expect(page.getByRole('cell', { name: 'files', exact: true })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Edit files' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');

      await page.getByRole('link', { name: 'Git & secrets' }).click();
      await expect(page.getByRole('table', { name: 'Custom secrets' }).getByText('API_TOKEN')).toBeVisible();
      await expect(page.getByText('Connected', { exact: true })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Add secret' }).click();
      await expect(page.getByRole('dialog', { name: 'Add secret' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');

      await page.getByRole('link', { name: 'Sandbox specs' }).click();
      await page
        .getByRole('button', { name: /^Details of / })
        .first()
        .click();
      await expect(page.getByRole('dialog')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('dialog').getByRole('button', { name: 'Start sandbox' }).click();

      // A notification says it started; every status badge colour is checked too.
      await page.getByRole('link', { name: 'Sandboxes' }).click();
      const table = page.getByRole('table', { name: 'Sandboxes' });
      await expect(table.getByText('Running')).toBeVisible({ timeout: 10_000 });
      await expect(page.getByText('Sandbox started')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await table.getByRole('button', { name: /^Pause / }).click();
      await expect(table.getByText('Paused')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
