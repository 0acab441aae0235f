import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startOpenAiStub } from '../server/testing/openai-stub';
import { startFakeProviderApi } from '../test-support/git/fake-provider-api';
import { axeScan, seriousFindings } from './support/axe';
import { insertLlmCalls } from './support/database';
import { expect, test } from './support/fixtures';

/** Axe's rules whose outcome depends on colours: the only ones the dark scheme can change. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Axe's serious and critical findings on what the page shows now, in the light scheme and then in
 * the dark one, as readable lines. The console follows the system's scheme as it changes, so one
 * page serves both; in the dark scheme only the colour rules run, the others cannot differ.
 */
async function seriousViolations(page: Page): Promise<string[]> {
  // A drawer or dialog still sliding or fading in has colours no one reads: scanned once it is there.
  await transitionsDone(page);
  const light = seriousFindings(await axeScan(page).analyze());
  await showScheme(page, 'dark');
  const dark = seriousFindings(await axeScan(page).withRules(COLOUR_RULES).analyze()).map((line) => `dark: ${line}`);
  await showScheme(page, 'light');
  return [...light, ...dark];
}

/** Switches the system's colour scheme and waits until the console shows it, its colour transitions done. */
async function showScheme(page: Page, colorScheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme });
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
  await transitionsDone(page);
}

/** Waits until no CSS transition runs on the page. */
const transitionsDone = (page: Page) =>
  page.waitForFunction(() => document.getAnimations().every((animation) => !(animation instanceof CSSTransition)));

/** A SANDBOX_SPECS_FILE with a spec whose command fails at once: a sandbox in ERROR. */
function failingSpecFile(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-specs-')), 'specs.json');
  fs.writeFileSync(file, JSON.stringify([{ id: 'broken', command: ['sh', '-c', 'echo "config file missing" >&2; exit 3'] }]));
  return file;
}

type Api = (path: string, init?: { method?: string }) => Promise<{ json: () => unknown }>;

/** Three sandboxes: one running, one paused, one failed; their ids in that order. */
async function startSandboxes(api: Api): Promise<[string, string, string]> {
  const start = async (query = '') => ((await api(`/api/v1/sandboxes${query}`, { method: 'POST' })).json() as { id: string }).id;
  const [running, paused, failed] = [await start(), await start(), await start('?sandbox_spec_id=broken')];
  await api(`/api/v1/sandboxes/${paused}/pause`, { method: 'POST' });
  return [running, paused, failed];
}

const status = (page: Page, id: string) => page.locator(`[data-sandbox-id="${id}"] [data-status]`);

// One test per page. Each scans it two to eight times, each scan a second or more of the
// browser's time; with two workers on two cores (and sandboxes running beside them), more than
// the default time.
test.describe.configure({ timeout: 90_000 });

test.describe('in the light and dark schemes, no serious accessibility violations on', () => {
  test.use({ colorScheme: 'light' });

  test('the sign-in screen', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Sign in to Agent Console' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('the Settings page', async ({ page, signIn }) => {
    await signIn(page);
    await expect(page.getByRole('status', { name: 'Loading settings' })).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('the Settings page while its settings load', async ({ page, signIn }) => {
    // The server's response is held (not replaced) until the scan is done.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/api/settings',
      async (route) => {
        await released;
        await route.continue();
      },
    );
    await signIn(page);
    await expect(page.getByRole('status', { name: 'Loading settings' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    release();
  });

  test('the MCP servers page and its editor', async ({ page, signIn, api }) => {
    await api('/api/settings', {
      method: 'POST',
      body: { mcp_config: { stdio_servers: [{ name: 'files', command: 'npx', args: ['-y', 'server-files'], env: { ROOT: '/tmp' } }] } },
    });
    await signIn(page);
    await page.getByRole('link', { name: 'MCP servers' }).click();
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

  test('the Users page, its invitation, the team defaults and the API keys', async ({ page, signIn, api }) => {
    await api('/api/organizations/default/members/invite', { method: 'POST', body: { emails: ['new@example.com'], role: 'member' } });
    await api('/api/keys', { method: 'POST', body: { name: 'nightly', expires_at: null } });
    await signIn(page);
    await page.getByRole('link', { name: 'Users' }).click();
    await expect(page.getByRole('row', { name: /new@example\.com/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Invite people' }).first().click();
    await expect(page.getByRole('dialog', { name: 'Invite people' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('link', { name: 'Team defaults' }).click();
    await expect(page.getByRole('form', { name: 'Team defaults' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'API keys' }).click();
    await expect(page.getByRole('row', { name: /nightly/ })).toBeVisible();
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

  test("the Conversations page's suggested tasks and an issue's solvability estimate", async ({ page, signIn, api }) => {
    const provider = await startFakeProviderApi('ghp_axe');
    const llm = await startOpenAiStub([
      {
        toolCalls: [
          {
            name: 'solvability_estimate',
            arguments: { score: 0.8, summary: 'Clear steps.', actionable_feedback: ['Attach a card'], positive_feedback: ['Steps'] },
          },
        ],
      },
    ]);
    try {
      await api('/api/add-git-providers', {
        method: 'POST',
        body: { provider_tokens: { github: { token: 'ghp_axe', host: provider.url } } },
      });
      await api('/api/settings', { method: 'POST', body: { llm_model: 'openai/stub-model', llm_base_url: llm.baseUrl } });
      await signIn(page);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversations' }).click();
      const suggestions = page.getByRole('region', { name: 'Suggested tasks' });
      await expect(suggestions.getByRole('button', { name: /^Fix issue: Punch cards/ })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await suggestions.getByRole('button', { name: /^Fix issue: Punch cards/ }).click();
      await expect(
        page.getByRole('dialog', { name: 'Start from an issue' }).getByRole('region', { name: 'Solvability estimate' }),
      ).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await provider.close();
      await llm.close();
    }
  });

  test('the Usage page with its figures and charts, and the audit log with an entry’s details', async ({ page, signIn, api, server }) => {
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();
    const call = { user_id: 'default', conversation_id: 'c1', completion_tokens: 2_000 };
    insertLlmCalls(server.dataDir, [
      { ...call, model: 'anthropic/claude-sonnet-4-5', prompt_tokens: 40_000, cost: 0.15, created_at: day(2) },
      { ...call, model: 'openai/gpt-5', prompt_tokens: 25_000, cost: 0.05, created_at: day(1) },
      { ...call, model: 'anthropic/claude-sonnet-4-5', prompt_tokens: 60_000, cost: 0.21, created_at: day(0) },
    ]);
    await api('/api/settings', { method: 'POST', body: { confirmation_mode: true } });
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
    await expect(page.getByLabel('Cost', { exact: true })).toHaveText('$0.41');
    for (const chart of ['Cost per day', 'Tokens per day', 'Cost per day by user', 'Cost per day by model', 'Sandbox hours per day'])
      await expect(page.getByRole('figure', { name: chart }).locator('.recharts-surface').first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
    const log = page.getByRole('table', { name: 'Audit log' });
    await expect(log.getByRole('row').filter({ hasText: 'settings' }).first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    // An entry opens with Enter, and Escape gives the focus back to it.
    const entry = log.getByRole('button', { name: /^Entry \d+$/ }).first();
    await entry.focus();
    await page.keyboard.press('Enter');
    const detail = page.getByRole('dialog', { name: 'Audit log entry' });
    await expect(detail.getByRole('table', { name: 'Changes' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(detail).toBeHidden();
    await expect(entry).toBeFocused();
  });

  test.describe('with sandboxes running, paused and failed', () => {
    test.use({ serverEnv: { SANDBOX_SPECS_FILE: failingSpecFile() } });

    test('the Sandboxes page: loading, running, paused and failed rows, the start dialog and a notification', async ({
      page,
      signIn,
      api,
    }) => {
      const [running, paused, failed] = await startSandboxes(api);
      await signIn(page);
      // Loading: the skeleton, while the list is held back.
      let load!: () => void;
      const loaded = new Promise<void>((resolve) => (load = resolve));
      const isSearch = (url: URL) => url.pathname === '/api/v1/sandboxes/search';
      await page.route(isSearch, async (route) => {
        await loaded;
        await route.fallback();
      });
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sandboxes' }).click();
      await expect(page.getByLabel('Loading sandboxes')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      load();
      await page.unroute(isSearch);

      // Running (with its agent server and key), paused, and failed (with the reason).
      await expect(status(page, running)).toHaveText('Running', { timeout: 10_000 });
      await expect(status(page, paused)).toHaveText('Paused');
      await expect(status(page, failed)).toHaveText('Error');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Start sandbox' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Start sandbox' });
      await expect(dialog).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Start' }).click();
      await expect(page.getByText('Sandbox started')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      // The running one's last hour, once the meter has looked at it; Escape closes it.
      await page.goto(`/sandboxes?resources=${running}`);
      const resources = page.getByRole('dialog', { name: /Resource use of/ });
      await expect(resources.getByRole('figure', { name: 'CPU over the last hour' }).locator('.recharts-surface')).toBeVisible({
        timeout: 15_000,
      });
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(resources).toBeHidden();
    });

    test('the Sandboxes page: selected rows, the bulk dialog, an action under way and the logs', async ({ page, signIn, api }) => {
      const [running, paused, failed] = await startSandboxes(api);
      await signIn(page);
      await page.goto('/sandboxes');
      // Every row in its last state first: a row that changes grows or shrinks, moving those below
      // it between a click's press and its release, which then selects nothing.
      await expect(status(page, running)).toHaveText('Running', { timeout: 10_000 });
      await expect(status(page, paused)).toHaveText('Paused');
      await expect(status(page, failed)).toHaveText('Error');
      await page.getByRole('checkbox', { name: `Select ${running}` }).check();
      await page.getByRole('checkbox', { name: `Select ${failed}` }).check();
      await expect(page.getByRole('toolbar', { name: 'Selected sandboxes' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Delete (2)' }).click();
      await expect(page.getByRole('dialog', { name: 'Delete 2 sandboxes?' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Cancel' }).click();

      // An action under way, held until scanned.
      let respond!: () => void;
      const responded = new Promise<void>((resolve) => (respond = resolve));
      await page.route(
        (url) => url.pathname === `/api/v1/sandboxes/${running}/pause`,
        async (route) => {
          await responded;
          await route.fallback();
        },
      );
      await page.getByRole('button', { name: `Pause ${running}` }).click();
      await expect(status(page, running)).toHaveText('Pausing…');
      expect(await seriousViolations(page)).toEqual([]);
      respond();
      await expect(status(page, running)).toHaveText('Paused');

      await page.getByRole('button', { name: `More actions for ${failed}` }).click();
      await page.getByRole('menuitem', { name: 'Logs' }).click();
      await expect(page.getByRole('dialog').getByLabel('Log lines')).toContainText('config file missing');
      // Once the menu has gone: while it fades out it is a menu without its items.
      await expect(page.getByRole('menu')).toHaveCount(0);
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('the Sandbox specs page and a spec’s details', async ({ page, signIn }) => {
      await signIn(page);
      await page.getByRole('link', { name: 'Sandbox specs' }).click();
      await expect(page.getByRole('table', { name: 'Sandbox specs' }).getByRole('row')).toHaveCount(3);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Details of broken' }).click();
      await expect(page.getByRole('dialog', { name: 'Spec broken' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
});

test.describe('at 375 px, in the light and dark schemes, no serious accessibility violations on', () => {
  test.use({ colorScheme: 'light', viewport: { width: 375, height: 740 }, serverEnv: { SANDBOX_SPECS_FILE: failingSpecFile() } });

  test('the Sandboxes page as cards, with a selection and the logs', async ({ page, signIn, api }) => {
    const [running, paused, failed] = await startSandboxes(api);
    await signIn(page);
    await page.goto('/sandboxes');
    await expect(status(page, running)).toHaveText('Running', { timeout: 10_000 });
    await expect(status(page, paused)).toHaveText('Paused');
    await expect(status(page, failed)).toHaveText('Error');
    await page.getByRole('checkbox', { name: `Select ${failed}` }).check();
    await expect(page.getByRole('toolbar', { name: 'Selected sandboxes' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: `More actions for ${running}` }).click();
    await page.getByRole('menuitem', { name: 'Logs' }).click();
    await expect(page.getByRole('dialog').getByLabel('Log lines')).toContainText('listening');
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('the Sandbox specs page as cards, and a spec’s details', async ({ page, signIn }) => {
    await signIn(page);
    await page.goto('/sandbox-specs');
    await expect(page.getByRole('list', { name: 'Sandbox specs' }).getByRole('listitem')).toHaveCount(2);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Details of broken' }).click();
    await expect(page.getByRole('dialog', { name: 'Spec broken' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

// The scan itself: axe is put in a document once, so a second scan of it must see what changed.
test('a scan finds serious violations, and the next scan of the same document finds those added since', async ({ browser }) => {
  const page = await browser.newPage();
  await page.setContent('<html lang="en"><head><title>Scanned</title></head><body><main><h1>Scanned</h1></main></body></html>');
  expect(seriousFindings(await axeScan(page).analyze())).toEqual([]);
  await page.evaluate(() => {
    document.querySelector('main')!.insertAdjacentHTML('beforeend', '<button></button><p style="color:#bbb;background:#fff">faint</p>');
  });
  const found = seriousFindings(await axeScan(page).analyze()).map((line) => line.split(':')[0]);
  expect(found.sort()).toEqual(['button-name', 'color-contrast']);
  await page.close();
});
