import type { Page } from '@playwright/test';
import { startFakeProviderApi } from '../test-support/git/fake-provider-api';
import { axeScan, seriousFindings } from './support/axe';
import { expect, test } from './support/fixtures';
import { addTeamMember } from './support/team';

/*
 * Every page on a phone (375 px, light scheme), with data: nothing scrolls sideways and axe finds
 * nothing serious. (The Sandboxes and Sandbox specs pages have their own in sandboxes.spec.ts.)
 */

test.use({ viewport: { width: 375, height: 740 }, colorScheme: 'light' });

/** Axe's serious and critical findings, and how far the page scrolls sideways. */
async function check(page: Page): Promise<{ overflow: number; violations: string[] }> {
  const violations = seriousFindings(await axeScan(page).analyze());
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  return { overflow, violations };
}

const OK = { overflow: 0, violations: [] };

async function open(page: Page, link: string) {
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
}

test('Settings and MCP servers', async ({ page, signIn, api }) => {
  await api('/api/settings', {
    method: 'POST',
    body: {
      llm_model: 'demo/scripted',
      mcp_config: {
        stdio_servers: [{ name: 'files', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/ada/My Notes'] }],
        shttp_servers: [{ url: 'https://mcp.example.com/a/rather/long/path/to/the/mcp', timeout: 30 }],
      },
    },
  });
  await signIn(page);
  await expect(page.getByLabel('LLM model', { exact: true })).toHaveValue('demo/scripted');
  expect(await check(page)).toEqual(OK);
  await page.getByRole('link', { name: 'MCP servers' }).click();
  // On a phone, each server is a card.
  await expect(page.getByRole('list', { name: 'MCP servers' }).getByRole('listitem').filter({ hasText: 'files' })).toBeVisible();
  expect(await check(page)).toEqual(OK);
});

test('Git & secrets, both tabs', async ({ page, signIn, api }) => {
  await api('/api/add-git-providers', {
    method: 'POST',
    body: {
      provider_tokens: { github: { token: 'ghp_example' }, gitlab: { token: 'glpat-x', host: 'gitlab.a-long-company-name.example.com' } },
    },
  });
  await api('/api/secrets', {
    method: 'POST',
    body: { name: 'A_RATHER_LONG_SECRET_NAME_FOR_STAGING', value: 'v', description: 'Staging API' },
  });
  await signIn(page);
  await open(page, 'Git & secrets');
  await expect(page.getByTestId('gitlab-status')).toHaveText('Saved, not verified');
  expect(await check(page)).toEqual(OK);
  await page.getByRole('tab', { name: /Custom secrets/ }).click();
  await expect(page.getByRole('table', { name: 'Custom secrets' })).toBeVisible();
  expect(await check(page)).toEqual(OK);
});

test("Conversations' suggested tasks and the issue form", async ({ page, signIn, api }) => {
  const provider = await startFakeProviderApi('ghp_narrow');
  try {
    await api('/api/add-git-providers', {
      method: 'POST',
      body: { provider_tokens: { github: { token: 'ghp_narrow', host: provider.url } } },
    });
    await signIn(page);
    await open(page, 'Conversations');
    await expect(page.getByRole('region', { name: 'Suggested tasks' }).getByRole('button', { name: /^Fix failing checks/ })).toBeVisible();
    await expect(page.getByRole('form', { name: 'Start from an issue' })).toBeVisible();
    expect(await check(page)).toEqual(OK);
  } finally {
    await provider.close();
  }
});

test('Conversations and a conversation', async ({ page, signIn, api }) => {
  test.setTimeout(90_000);
  await api('/api/settings', { method: 'POST', body: { llm_model: 'demo/scripted' } });
  const started = (
    await api('/api/v1/app-conversations/stream-start', { method: 'POST', body: { title: 'Fix the flaky login test' } })
  ).json() as {
    app_conversation_id: string | null;
  }[];
  await signIn(page);
  await open(page, 'Conversations');
  await expect(page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: 'Fix the flaky login test' })).toBeVisible();
  expect(await check(page)).toEqual(OK);
  await page.goto(`/conversations/${started.at(-1)!.app_conversation_id}`);
  await expect(page.getByRole('heading', { name: 'Fix the flaky login test', level: 1 })).toBeVisible();
  expect(await check(page)).toEqual(OK);
});

test('Users: each a card with their status, role and actions in view', async ({ page, signIn, server, api }) => {
  await addTeamMember(server, 'bob@example.com', 'member');
  await api('/api/organizations/default/members/invite', { method: 'POST', body: { emails: ['new.hire@example.com'], role: 'member' } });
  await signIn(page);
  await open(page, 'Users');
  const bob = page.getByRole('list', { name: 'Users' }).getByRole('listitem').filter({ hasText: 'bob@example.com' });
  await expect(bob).toContainText('active');
  await expect(bob.getByRole('combobox', { name: 'Role of bob@example.com' })).toBeInViewport();
  await expect(bob.getByRole('button', { name: 'Delete bob@example.com' })).toBeInViewport();
  const invited = page.getByRole('list', { name: 'Users' }).getByRole('listitem').filter({ hasText: 'new.hire@example.com' });
  await expect(invited).toContainText('invited');
  await expect(invited.getByRole('button', { name: 'New invitation link for new.hire@example.com' })).toBeInViewport();
  expect(await check(page)).toEqual(OK);
});

test('the navigation leaves the Tab order while closed, Escape closes it, and a skip link leads to the page', async ({ page, signIn }) => {
  await signIn(page);
  const burger = page.getByRole('button', { name: 'Toggle navigation' });
  const sandboxes = page.locator('nav').getByRole('link', { name: 'Sandboxes' });
  await expect(burger).toHaveAttribute('aria-expanded', 'false');
  await expect(burger).toHaveAttribute('aria-controls', 'main-navigation');
  await expect(sandboxes).toBeHidden();

  await burger.click();
  await expect(burger).toHaveAttribute('aria-expanded', 'true');
  await sandboxes.focus();
  await page.keyboard.press('Escape');
  await expect(burger).toHaveAttribute('aria-expanded', 'false');
  await expect(burger).toBeFocused();
  await expect(sandboxes).toBeHidden();
  // Tab from the header's last button skips the closed navigation.
  await page.getByRole('button', { name: 'Sign out' }).focus();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('navigation', { name: 'Main' }).locator('a:focus')).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
});
