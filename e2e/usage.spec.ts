import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startOpenAiStub } from '../server/testing/openai-stub';
import type { Usage } from '../src/contract/usage';
import { startConversation } from './support/conversations';
import { expect, test } from './support/fixtures';
import { addTeamMember, onLocalhost } from './support/team';

/*
 * The Usage page against a real server: the stub LLM's calls (their tokens and cost, as the LLM
 * proxy records them) in its figures, charts and CSV, and the budget that then refuses a start;
 * and the Sandboxes page's Resources column for a sandbox that keeps a CPU busy.
 */

const compact = (count: number) =>
  new Intl.NumberFormat('en-US', count >= 10_000 ? { notation: 'compact', maximumFractionDigits: 1 } : {}).format(count);

test('the stub LLM’s tokens and cost show on the Usage page, its CSV, and the budget that then refuses a start', async ({
  page,
  signIn,
  api,
  server,
  browser,
}) => {
  test.setTimeout(120_000);
  const llm = await startOpenAiStub([{ text: 'All done.', usage: { prompt_tokens: 100_000, completion_tokens: 10_000 } }]);
  try {
    await api('/api/settings', {
      method: 'POST',
      body: { llm_model: 'openai/gpt-4o', llm_base_url: llm.baseUrl, llm_api_key: 'sk-e2e-stub-key', confirmation_mode: false },
    });
    await signIn(page);
    await startConversation(page, 'Count the files', { useDemo: false });
    await expect(page.getByRole('log', { name: 'Conversation events' }).getByText('All done.')).toBeVisible({ timeout: 30_000 });

    const usage = (await api('/api/usage')).json() as Usage;
    expect(usage.totals.calls).toBeGreaterThan(0);
    expect(usage.totals.cost).toBeGreaterThan(0);
    expect(usage.totals.conversations).toBe(1);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
    await expect(page.getByRole('heading', { name: 'Usage', level: 1 })).toBeVisible();
    const tokens = usage.totals.prompt_tokens + usage.totals.completion_tokens;
    await expect(page.getByLabel('Tokens', { exact: true })).toHaveText(compact(tokens));
    await expect(page.getByLabel('Cost', { exact: true })).toHaveText(`$${usage.totals.cost.toFixed(2)}`);
    await expect(page.getByLabel('Conversations started')).toHaveText('1');
    for (const chart of ['Cost per day', 'Tokens per day', 'Cost per day by model', 'Sandbox hours per day'])
      await expect(page.getByRole('figure', { name: chart }).locator('.recharts-surface').first()).toBeVisible();
    const model = page.getByRole('table', { name: 'Usage by model' }).getByRole('row').nth(1);
    await expect(model).toContainText(usage.models[0]!.model);
    await expect(model).toContainText(compact(usage.models[0]!.prompt_tokens));
    // The range is in the URL: a preset changes it, and a reload keeps it.
    await page.getByRole('button', { name: '7 days' }).click();
    await expect(page).toHaveURL(/\/usage\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/);
    await page.reload();
    await expect(page.getByLabel('Tokens', { exact: true })).toHaveText(compact(tokens));

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^usage-.*\.csv$/);
    const csv = fs
      .readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe('day,user_id,email,calls,prompt_tokens,completion_tokens,cache_read_tokens,cost_usd,sandbox_hours,conversations');
    expect(csv[1]).toContain(`,default,`);
    expect(csv[1]).toContain(`,${usage.totals.prompt_tokens},${usage.totals.completion_tokens},`);

    // A member whose budget an admin set to nothing: their start is refused, saying so.
    const mia = await addTeamMember(server, 'mia@example.com', 'member');
    const patched = await api(`/api/organizations/default/members/${mia.userId}`, { method: 'PATCH', body: { monthly_cost_limit: 0 } });
    expect(patched.status).toBe(200);
    await page.reload();
    const row = page.getByRole('table', { name: 'Usage by user' }).getByRole('row', { name: /mia/ });
    await expect(row).toContainText('$0.00 of $0.00 this month');

    const context = await browser.newContext({ baseURL: onLocalhost(server.url) });
    const member = await context.newPage();
    await member.goto('/settings');
    const instead = member.getByRole('button', { name: 'Use an email and password instead' });
    const email = member.getByLabel('Email', { exact: true });
    await expect(instead.or(email)).toBeVisible();
    if (await instead.isVisible()) await instead.click();
    await email.fill(mia.email);
    await member.getByLabel('Password', { exact: true }).fill(mia.password);
    await member.getByRole('button', { name: 'Sign in' }).click();
    await expect(member.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await member.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
    await expect(member.getByRole('heading', { name: 'Your usage' })).toBeVisible();
    await expect(member.getByRole('table', { name: 'Usage by user' })).toContainText('$0.00 of $0.00 this month');
    await member.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversations' }).click();
    await member.getByRole('button', { name: 'New conversation' }).first().click();
    const dialog = member.getByRole('dialog', { name: 'New conversation' });
    await dialog.getByRole('button', { name: 'Use the demo model' }).click();
    await dialog.getByLabel('What should the agent do?').fill('One more thing');
    await dialog.getByRole('button', { name: 'Start' }).click();
    await expect(member.getByText('You have used $0.00 of your monthly budget of $0.00')).toBeVisible();
    await context.close();
  } finally {
    await llm.close();
  }
});

/** A spec whose sandbox keeps a CPU busy beside its agent server. */
function busySpecFile(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-specs-')), 'specs.json');
  const agent = `exec "${process.execPath}" "${path.resolve('build/agent-server/main.js')}"`;
  fs.writeFileSync(file, JSON.stringify([{ id: 'busy', command: ['sh', '-c', `(while :; do :; done) & ${agent}`] }]));
  return file;
}

test.describe('a busy sandbox', () => {
  // The Resources column shows in a wide window.
  test.use({ serverEnv: { SANDBOX_SPECS_FILE: busySpecFile() }, viewport: { width: 1600, height: 900 } });

  test('shows its CPU in the Resources column, and its last hour against its limits', async ({ page, signIn, api }) => {
    test.setTimeout(90_000);
    const started = (await api('/api/v1/sandboxes?sandbox_spec_id=busy', { method: 'POST' })).json() as { id: string };
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sandboxes' }).click();
    const use = page.locator(`[data-sandbox-id="${started.id}"] [data-resource-use]`);
    await expect(use).toHaveText(/^CPU \d+% · /, { timeout: 45_000 });
    await expect
      .poll(async () => Number(/CPU (\d+)%/.exec((await use.textContent()) ?? '')?.[1] ?? 0), { timeout: 45_000 })
      .toBeGreaterThan(10);

    await use.click();
    await expect(page).toHaveURL(new RegExp(`resources=${started.id}`));
    const drawer = page.getByRole('dialog', { name: /Resource use of/ });
    await expect(drawer).toContainText(/Limits: \d+ CPUs/);
    await expect(drawer.getByRole('figure', { name: 'CPU over the last hour' }).locator('.recharts-surface')).toBeVisible();
    await expect(drawer.getByRole('figure', { name: 'Memory over the last hour' })).toBeVisible();
  });
});
