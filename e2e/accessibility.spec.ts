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

// One test per page, so each stays well within the time limit.
for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`in the ${colorScheme} scheme, no serious accessibility violations on`, () => {
    test.use({ colorScheme });

    test('the sign-in screen', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Sign in to Agent Console' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('the Settings page', async ({ page, signIn }) => {
      await signIn(page);
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('the MCP servers page and its editor', async ({ page, signIn, api }) => {
      await api('/api/settings', {
        method: 'POST',
        body: { mcp_config: { stdio_servers: [{ name: 'files', command: 'npx', args: ['-y', 'server-files'], env: { ROOT: '/tmp' } }] } },
      });
      await signIn(page);
      await page.getByRole('tab', { name: 'MCP servers' }).click();
      await expect(page.getByRole('cell', { name: 'files', exact: true })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Edit files' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('the Git & secrets page and its dialog', async ({ page, signIn, api }) => {
      await api('/api/secrets', { method: 'POST', body: { name: 'API_TOKEN', value: 'a-value', description: 'Staging' } });
      await api('/api/add-git-providers', { method: 'POST', body: { provider_tokens: { github: { token: 'ghp_example', host: null } } } });
      await signIn(page);
      await page.getByRole('link', { name: 'Git & secrets' }).click();
      await expect(page.getByTestId('github-status')).toHaveText('Saved, not verified');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('tab', { name: /Custom secrets/ }).click();
      await expect(page.getByRole('table', { name: 'Custom secrets' }).getByText('API_TOKEN')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Add secret' }).click();
      await expect(page.getByRole('dialog', { name: 'Add secret' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('the Sandbox specs page and its details', async ({ page, signIn }) => {
      await signIn(page);
      await page.getByRole('link', { name: 'Sandbox specs' }).click();
      await page
        .getByRole('button', { name: /^Details of / })
        .first()
        .click();
      await expect(page.getByRole('dialog')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('the Conversations page, a start that failed, the new conversation form and a conversation', async ({ page, signIn, api }) => {
      await api('/api/v1/app-conversations', { method: 'POST', body: { title: 'Needs a provider', selected_repository: 'octo/hello' } });
      await signIn(page);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversations' }).click();
      await expect(page.getByRole('group', { name: 'Start of Needs a provider' }).getByRole('alert')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'New conversation' }).first().click();
      await expect(page.getByRole('dialog', { name: 'New conversation' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');

      const started = (await api('/api/v1/app-conversations/stream-start', { method: 'POST', body: { title: 'Ready one' } })).json() as {
        app_conversation_id: string | null;
      }[];
      await page.goto(`/conversations/${started.at(-1)!.app_conversation_id}`);
      await expect(page.getByRole('heading', { name: 'Ready one', level: 1 })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('the Sandboxes page, with its status badges and a notification', async ({ page, signIn }) => {
      await signIn(page);
      await page.getByRole('link', { name: 'Sandboxes' }).click();
      await page.getByRole('button', { name: 'Start sandbox' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Start sandbox' });
      await expect(dialog).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Start' }).click();

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
