import type { Locator, Page } from '@playwright/test';
import { startOpenAiStub } from '../server/testing/openai-stub';
import { builtAssetPath } from './support/built-assets';
import { expect, test } from './support/fixtures';

const SECRETS = { llm: 'sk-e2e-llm-7f3a9c', search: 'tvly-e2e-search-2b8d', sandbox: 'sbx-e2e-sandbox-5e1f' };

async function save(page: Page) {
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeHidden();
}

/** The input labelled `label` (a section may carry the same name, e.g. "Agent"). */
const field = (page: Page, label: string) => page.locator('input, select, textarea').and(page.getByLabel(label, { exact: true }));

test.describe('with every request logged', () => {
  test.use({ serverEnv: { LOG_LEVEL: 'debug' } });

  test('secrets never reach the server log', async ({ page, server }) => {
    await page.goto(server.signInLink);
    await field(page, 'LLM API key').fill(SECRETS.llm);
    await field(page, 'Search API key').fill(SECRETS.search);
    await save(page);
    // A body the server rejects is not logged either.
    await page.evaluate(
      async ([key, secret]) => {
        await fetch('/api/settings', {
          method: 'POST',
          headers: { 'X-Session-API-Key': key!, 'content-type': 'application/json' },
          body: JSON.stringify({ sandbox_api_key: secret, max_iterations: 'x' }),
        });
      },
      [server.key, SECRETS.sandbox],
    );
    const log = server.output();
    expect(log).toContain('"url":"/api/settings"'); // requests are logged…
    for (const secret of Object.values(SECRETS)) expect(log).not.toContain(secret); // …their secrets not
  });
});

test('a first run shows the defaults and says nothing is stored yet', async ({ page, signIn, api }) => {
  expect((await api('/api/settings')).status).toBe(404);
  await signIn(page);
  await expect(page.getByText('Nothing stored yet')).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Proactive conversation starters' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Sound notifications' })).not.toBeChecked();
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeHidden();
});

test('every section can be edited, saved and is there after a reload; secrets never come back', async ({ page, signIn, api }) => {
  await signIn(page);

  // LLM
  await field(page, 'LLM model').fill('anthropic/claude-sonnet-4-5-20250929');
  await field(page, 'LLM base URL').fill('https://llm.example.com/v1');
  await field(page, 'LLM API key').fill(SECRETS.llm);
  await field(page, 'Max budget per task').fill('12.5');
  // Agent
  // Choices from the server (/api/options/*): the one agent it runs, and the LLM security analyzer.
  await field(page, 'Agent').selectOption('CodeActAgent');
  await field(page, 'Max iterations').fill('75');
  await expect(field(page, 'Security analyzer').locator('option')).toHaveText(['None', 'llm']);
  await field(page, 'Security analyzer').selectOption('llm');
  await field(page, 'Condenser max size').fill('120');
  await page.getByRole('switch', { name: 'Confirmation mode' }).check();
  await page.getByRole('switch', { name: 'Default condenser' }).uncheck();
  await page.getByRole('switch', { name: 'V1 conversations' }).check();
  // Sandbox
  await field(page, 'Sandbox base image').fill('python:3.12-slim');
  await field(page, 'Sandbox runtime image').fill('ghcr.io/openhands/runtime:0.62');
  await field(page, 'Remote runtime resource factor').fill('2');
  await field(page, 'Sandbox API key').fill(SECRETS.sandbox);
  // Git identity
  await field(page, 'Git user name').fill('Ada Lovelace');
  await field(page, 'Git user email').fill('ada@example.com');
  // Search: the agent's web search uses it.
  await expect(field(page, 'Search API key')).not.toHaveAccessibleDescription(/Not used/);
  await field(page, 'Search API key').fill(SECRETS.search);
  // Preferences
  // One the console has no strings in: the console stays in English (e2e/language.spec.ts switches it).
  await field(page, 'Language').selectOption('ko-KR');
  await page.getByRole('switch', { name: 'Sound notifications' }).check();
  await page.getByRole('switch', { name: 'Proactive conversation starters' }).uncheck();
  await page.getByRole('switch', { name: 'Solvability analysis' }).uncheck();
  await page.getByRole('switch', { name: 'Analytics consent' }).check();
  // What analytics would be, and that this server collects none.
  await expect(page.getByRole('switch', { name: /Analytics consent/ })).toHaveAccessibleDescription(
    /PostHog.*Not used by this server: this server collects no analytics/,
  );
  // Account: the account's, read-only (the owner who signs in with the key has no address).
  await expect(field(page, 'Email')).toHaveAttribute('readonly');
  await expect(field(page, 'Email')).toHaveValue('');

  await expect(page.getByText('You have unsaved changes.')).toBeVisible();
  await save(page);

  await page.reload();
  await expect(field(page, 'LLM model')).toHaveValue('anthropic/claude-sonnet-4-5-20250929');
  await expect(field(page, 'LLM base URL')).toHaveValue('https://llm.example.com/v1');
  await expect(field(page, 'Max budget per task')).toHaveValue('12.5');
  await expect(field(page, 'Agent')).toHaveValue('CodeActAgent');
  await expect(field(page, 'Max iterations')).toHaveValue('75');
  await expect(field(page, 'Security analyzer')).toHaveValue('llm');
  await expect(field(page, 'Condenser max size')).toHaveValue('120');
  await expect(page.getByRole('switch', { name: 'Confirmation mode' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Default condenser' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'V1 conversations' })).toBeChecked();
  await expect(field(page, 'Sandbox base image')).toHaveValue('python:3.12-slim');
  await expect(field(page, 'Sandbox runtime image')).toHaveValue('ghcr.io/openhands/runtime:0.62');
  await expect(field(page, 'Remote runtime resource factor')).toHaveValue('2');
  await expect(field(page, 'Git user name')).toHaveValue('Ada Lovelace');
  await expect(field(page, 'Git user email')).toHaveValue('ada@example.com');
  await expect(field(page, 'Language')).toHaveValue('ko-KR');
  await expect(page.getByRole('switch', { name: 'Sound notifications' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Proactive conversation starters' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'Solvability analysis' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'Analytics consent' })).toBeChecked();

  // Secrets: stored, shown as set, never filled in or present in the page.
  for (const [label, testId] of [
    ['LLM API key', 'llm_api_key'],
    ['Search API key', 'search_api_key'],
    ['Sandbox API key', 'sandbox_api_key'],
  ] as const) {
    await expect(field(page, label)).toHaveValue('');
    await expect(page.getByTestId(`${testId}-status`)).toHaveText('Set');
  }
  const shown =
    (await page.content()) +
    (await page.locator('input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value).join('\n')));
  for (const secret of Object.values(SECRETS)) expect(shown).not.toContain(secret);

  // The raw API response carries no secret either, but says each is set.
  const raw = await api('/api/settings');
  for (const secret of Object.values(SECRETS)) expect(raw.text).not.toContain(secret);
  expect(raw.json()).toMatchObject({
    llm_api_key: null,
    llm_api_key_set: true,
    search_api_key_set: true,
    sandbox_api_key_set: true,
    max_iterations: 75,
    max_budget_per_task: 12.5,
  });
});

test('"Clear" removes a stored secret, and a secret left empty is kept', async ({ page, signIn, api }) => {
  await api('/api/settings', { method: 'POST', body: { llm_api_key: SECRETS.llm, search_api_key: SECRETS.search } });
  await signIn(page);
  await expect(page.getByTestId('llm_api_key-status')).toHaveText('Set');

  await page.getByRole('button', { name: 'Clear LLM API key' }).click();
  await expect(page.getByTestId('llm_api_key-status')).toHaveText('Will be cleared');
  // Undo is possible until saving.
  await page.getByRole('button', { name: 'Undo clearing LLM API key' }).click();
  await expect(page.getByTestId('llm_api_key-status')).toHaveText('Set');
  await page.getByRole('button', { name: 'Clear LLM API key' }).click();
  await save(page);

  await expect(page.getByTestId('llm_api_key-status')).toHaveText('Not set');
  await expect(page.getByTestId('search_api_key-status')).toHaveText('Set');
  expect((await api('/api/settings')).json()).toMatchObject({ llm_api_key_set: false, search_api_key_set: true });
});

test('a value the server rejects is shown at its field, with what the user typed kept', async ({ page, signIn, api }) => {
  await signIn(page);
  await field(page, 'LLM model').fill('openai/gpt-5');
  await field(page, 'Git user email').fill('ada@example.com');

  // The console only sends valid values, so make the outgoing body carry one the real server
  // refuses; the 422 that comes back is the server's own.
  await page.route('**/api/settings', async (route) => {
    const request = route.request();
    if (request.method() !== 'POST') return route.continue();
    const body = {
      ...request.postDataJSON(),
      git_user_email: 'not-an-email',
      max_iterations: 0,
      condenser_max_size: 10,
      mcp_config: { foo: 1 },
    };
    return route.continue({ postData: JSON.stringify(body) });
  });
  const response = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Save changes' }).click();
  expect((await response).status()).toBe(422);

  await expect(page.getByText('Enter an email address such as name@example.com')).toBeVisible();
  await expect(field(page, 'Git user email')).toHaveAttribute('aria-invalid', 'true');
  await expect(field(page, 'Max iterations')).toHaveAttribute('aria-invalid', 'true');
  // The server's words (Pydantic's, and OpenHands' own sentence naming the field) read as the console's.
  await expect(field(page, 'Max iterations')).toHaveAccessibleDescription(/Must be greater than or equal to 1/);
  await expect(field(page, 'Condenser max size')).toHaveAccessibleDescription(/Must be at least 20/);
  await expect(page.getByText(/Input should|condenser_max_size must/)).toHaveCount(0);
  // An entry that names no field on this page is listed above the form.
  const alert = page.getByRole('alert').filter({ hasText: 'Settings not saved' });
  await expect(alert).toContainText('mcp_config.foo: Unknown field');
  // Nothing typed is lost, nothing was stored.
  await expect(field(page, 'Git user email')).toHaveValue('ada@example.com');
  await expect(field(page, 'LLM model')).toHaveValue('openai/gpt-5');
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeEnabled();
  expect((await api('/api/settings')).status).toBe(404);

  // Without the interference the same edit saves.
  await page.unroute('**/api/settings');
  await save(page);
  expect((await api('/api/settings')).json()).toMatchObject({ git_user_email: 'ada@example.com', llm_model: 'openai/gpt-5' });
});

test('the contract checks values before anything is sent', async ({ page, signIn }) => {
  await signIn(page);
  let posts = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/settings')) posts += 1;
  });
  await field(page, 'Condenser max size').fill('10');
  await field(page, 'Max budget per task').fill('0');
  await field(page, 'LLM base URL').fill('localhost:11434');
  await page.getByRole('button', { name: 'Save changes' }).click();
  // The contract's own sentence and its bounds, in one style.
  await expect(field(page, 'Condenser max size')).toHaveAccessibleDescription(/Must be at least 20/);
  await expect(field(page, 'Max budget per task')).toHaveAccessibleDescription(/Must be greater than 0/);
  await expect(page.getByText('URL must start with http:// or https://')).toBeVisible();
  expect(posts).toBe(0);
});

test('a save sends our server one POST of what changed, then reads the settings once', async ({ page, signIn }) => {
  await signIn(page);
  await expect(field(page, 'Git user name')).toBeVisible();
  const sent: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/settings') sent.push(`${request.method()} ${request.postData() ?? ''}`.trim());
  });
  await field(page, 'Git user name').fill('ada');
  await save(page);
  await page.waitForLoadState('networkidle');
  expect(sent).toEqual(['POST {"git_user_name":"ada"}', 'GET']);
});

test('saving never resets fields changed elsewhere meanwhile (OpenHands #14749, #6117)', async ({ page, signIn, api }) => {
  await api('/api/settings', {
    method: 'POST',
    body: {
      agent: 'CodeActAgent',
      llm_base_url: 'https://one.example/v1',
      mcp_config: { sse_servers: [{ url: 'https://mcp.example.com/sse', api_key: 'mcp-key' }] },
    },
  });
  await signIn(page);
  await expect(field(page, 'Agent')).toHaveValue('CodeActAgent');

  // Another client changes settings while this page is open.
  await api('/api/settings', { method: 'POST', body: { agent: 'BrowsingAgent', llm_base_url: 'https://two.example/v1' } });

  await field(page, 'Git user name').fill('grace');
  await save(page);

  const stored = (await api('/api/settings')).json() as Record<string, unknown>;
  expect(stored).toMatchObject({ git_user_name: 'grace', agent: 'BrowsingAgent', llm_base_url: 'https://two.example/v1' });
  expect(stored.mcp_config).toMatchObject({ sse_servers: [{ url: 'https://mcp.example.com/sse', api_key_set: true }] });
  // The form now shows what the server stored.
  await expect(field(page, 'Agent')).toHaveValue('BrowsingAgent');
});

test('a refresh in the background shows what changed elsewhere in the fields not touched, and keeps what was typed', async ({
  page,
  signIn,
  api,
}) => {
  await api('/api/settings', { method: 'POST', body: { git_user_name: 'Ada', llm_model: 'demo/scripted' } });
  await page.clock.install();
  await signIn(page);
  await field(page, 'LLM model').fill('anthropic/claude-sonnet-4-5-20250929');

  // Another client changes settings; the page asks again once its copy is old and the window is back in view.
  await api('/api/settings', { method: 'POST', body: { git_user_name: 'Grace', git_user_email: 'grace@example.com' } });
  await page.clock.fastForward('00:20');
  await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));

  await expect(field(page, 'Git user name')).toHaveValue('Grace');
  await expect(field(page, 'Git user email')).toHaveValue('grace@example.com');
  await expect(field(page, 'LLM model')).toHaveValue('anthropic/claude-sonnet-4-5-20250929');
});

test('leaving with unsaved changes asks first', async ({ page, signIn }) => {
  await signIn(page);
  await field(page, 'Git user name').fill('unsaved');
  await page.getByRole('link', { name: 'Sandboxes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(field(page, 'Git user name')).toHaveValue('unsaved');

  await page.getByRole('link', { name: 'Sandboxes' }).click();
  await dialog.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByRole('heading', { name: 'Sandboxes', level: 1 })).toBeVisible();
});

test('the question is still asked when the dialog code cannot be fetched (the server was updated meanwhile)', async ({ page, signIn }) => {
  await page.route(`**${builtAssetPath('src/components/overlays.ts')}`, (route) => route.fulfill({ status: 404, body: 'Not Found' }));
  await signIn(page);
  await field(page, 'Git user name').fill('unsaved');
  await page.getByRole('link', { name: 'Sandboxes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(field(page, 'Git user name')).toHaveValue('unsaved');

  await page.getByRole('link', { name: 'Sandboxes' }).click();
  await dialog.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByRole('heading', { name: 'Sandboxes', level: 1 })).toBeVisible();
});

test('Ctrl+S saves from the keyboard', async ({ page, signIn, api }) => {
  await signIn(page);
  await field(page, 'Git user name').fill('keyboard');
  await field(page, 'Git user name').press('Control+s');
  await expect(page.getByText('Settings saved')).toBeVisible();
  expect((await api('/api/settings')).json()).toMatchObject({ git_user_name: 'keyboard' });
});

test('a stored choice the server does not offer is shown and kept by a save of other fields', async ({ page, signIn, api }) => {
  await api('/api/settings', { method: 'POST', body: { security_analyzer: 'invariant' } });
  await signIn(page);
  await expect(field(page, 'Security analyzer')).toHaveValue('invariant');
  await field(page, 'Git user name').fill('Grace');
  await save(page);
  await page.reload();
  await expect(field(page, 'Security analyzer')).toHaveValue('invariant');
  expect((await api('/api/settings')).json()).toMatchObject({ security_analyzer: 'invariant', git_user_name: 'Grace' });
});

test.describe('in a 757 px high window', () => {
  test.use({ viewport: { width: 1280, height: 757 } });

  /** Whether `target` shows whole in the window, above the save bar. */
  async function expectAboveBar(target: Locator, bar: Locator) {
    const [box, barBox] = [await target.boundingBox(), await bar.boundingBox()];
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(barBox!.y);
  }

  test('the save bar never covers Test LLM or its result', async ({ page, signIn }) => {
    const llm = await startOpenAiStub([{ text: 'Ready for your first task.' }]);
    try {
      await signIn(page);
      await field(page, 'LLM model').fill('openai/gpt-e2e');
      await field(page, 'LLM base URL').fill(llm.baseUrl);
      const bar = page.getByRole('status').filter({ hasText: 'You have unsaved changes.' }).locator('xpath=../..');
      await expect(bar).toBeVisible();
      const llmSection = page.getByRole('region', { name: 'LLM' });
      const button = llmSection.getByRole('button', { name: 'Test LLM' });

      // Reached as the keyboard reaches it: the window scrolls just far enough to show it.
      await button.focus();
      await expectAboveBar(button, bar);
      await button.click();
      const result = llmSection.getByRole('status').filter({ hasText: 'gpt-e2e responded' });
      await expect(result).toContainText('Ready for your first task.');
      await expectAboveBar(result, bar);
      await expectAboveBar(button, bar);
    } finally {
      await llm.close();
    }
  });
});
