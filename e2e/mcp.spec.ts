import type { Page } from '@playwright/test';
import { startHttpMcpServer } from '../test-support/mcp/http-server';
import { STDIO_MCP_SERVER } from '../server/testing/stdio-mcp-server';
import { expect, test } from './support/fixtures';

const {
  command: NODE,
  args: [STDIO_SERVER],
} = STDIO_MCP_SERVER;

const input = (scope: Page | ReturnType<Page['getByRole']>, label: string) =>
  scope.locator('input, textarea, select').and(scope.getByLabel(label, { exact: true }));

async function openMcp(page: Page, signIn: (page: Page) => Promise<void>) {
  await signIn(page);
  await page.getByRole('link', { name: 'MCP servers' }).click();
  await expect(page).toHaveURL(/\/settings\/mcp$/);
}

function drawer(page: Page, name = 'Add MCP server') {
  return page.getByRole('dialog', { name });
}

/** The kind control is a segmented control: its radio inputs are hidden behind their labels. */
async function chooseKind(page: Page, kind: 'stdio' | 'SSE' | 'Streamable HTTP') {
  await page
    .getByRole('dialog')
    .locator('label')
    .filter({ hasText: new RegExp(`^${kind}$`) })
    .click();
  await expect(page.getByRole('dialog').getByRole('radio', { name: kind, exact: true })).toBeChecked();
}

async function storedMcp(api: (path: string) => Promise<{ json: () => unknown }>) {
  return ((await api('/api/settings')).json() as { mcp_config: Record<string, unknown[]> }).mcp_config;
}

test('add one server of each kind, reload, edit, change kind and delete', async ({ page, signIn, api }) => {
  await openMcp(page, signIn);
  await expect(page.getByText('No MCP servers yet')).toBeVisible();
  // Another client changes a setting meanwhile: MCP saves must send it back untouched. (Not the
  // language: the console would switch to it, and this test reads English.)
  await api('/api/settings', { method: 'POST', body: { max_iterations: 42, llm_api_key: 'kept-llm-key' } });

  // stdio, with arguments pasted as one line, reordered, and an env variable
  await page.getByRole('button', { name: 'Add server' }).click();
  let form = drawer(page);
  await input(form, 'Name').fill('files');
  await input(form, 'Command').fill('npx');
  await input(form, 'Paste as one line').fill(`-y @modelcontextprotocol/server-filesystem "/my docs"`);
  await form.getByRole('button', { name: 'Split into arguments' }).click();
  await expect(input(form, 'Argument 3')).toHaveValue('/my docs');
  await form.getByRole('button', { name: 'Move argument 3 up' }).click();
  await form.getByRole('button', { name: 'Add variable' }).click();
  await input(form, 'Variable 1 name').fill('ROOT_TOKEN');
  await input(form, 'Variable 1 value').fill('s3cret');
  await expect(input(form, 'Variable 1 value')).toHaveAttribute('type', 'password');
  await form.getByRole('button', { name: 'Add server' }).click();
  await expect(form).toBeHidden();

  // SSE with an API key
  await page.getByRole('button', { name: 'Add server' }).click();
  form = drawer(page);
  await chooseKind(page, 'SSE');
  await input(form, 'URL').fill('https://sse.example.com/sse');
  await input(form, 'API key').fill('sse-key-123');
  await form.getByRole('button', { name: 'Add server' }).click();
  await expect(form).toBeHidden();

  // streamable HTTP with a timeout
  await page.getByRole('button', { name: 'Add server' }).click();
  form = drawer(page);
  await chooseKind(page, 'Streamable HTTP');
  await input(form, 'URL').fill('https://http.example.com/mcp');
  await input(form, 'Timeout').fill('45');
  await form.getByRole('button', { name: 'Add server' }).click();
  await expect(form).toBeHidden();

  await page.reload();
  const table = page.getByRole('table', { name: 'MCP servers' });
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('row', { name: /stdio files npx -y '\/my docs' @modelcontextprotocol\/server-filesystem/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /SSE https:\/\/sse\.example\.com\/sse .* Set/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /Streamable HTTP .*timeout 45 s.* Not set/ })).toBeVisible();
  expect(await storedMcp(api)).toEqual({
    stdio_servers: [
      { name: 'files', command: 'npx', args: ['-y', '/my docs', '@modelcontextprotocol/server-filesystem'], env: { ROOT_TOKEN: 's3cret' } },
    ],
    sse_servers: [{ url: 'https://sse.example.com/sse', api_key: null, api_key_set: true }],
    shttp_servers: [{ url: 'https://http.example.com/mcp', api_key: null, api_key_set: false, timeout: 45 }],
  });

  // edit: the stored env value is there, masked; change the command
  await page.getByRole('button', { name: 'Edit files' }).click();
  form = drawer(page, 'Edit files');
  await expect(input(form, 'Variable 1 value')).toHaveValue('s3cret');
  await input(form, 'Command').fill('bunx');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(table.getByRole('row', { name: /stdio files bunx/ })).toBeVisible();

  // a new URL would not carry the stored key over either; Clear removes a stored key
  await page.getByRole('button', { name: 'Edit https://sse.example.com/sse' }).click();
  form = drawer(page, 'Edit https://sse.example.com/sse');
  await input(form, 'URL').fill('https://sse.example.com/v2/sse');
  await expect(form.getByText('The stored API key belongs to the old URL and will not be kept')).toBeVisible();
  await input(form, 'URL').fill('https://sse.example.com/sse');
  await expect(form.getByText('will not be kept')).toBeHidden();
  await form.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Edit https://sse.example.com/sse' }).click();
  await form.getByRole('button', { name: 'Clear API key' }).click();
  await expect(form.getByTestId('api_key-status')).toHaveText('Will be cleared');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(table.getByRole('row', { name: /SSE https:\/\/sse\.example\.com\/sse .* Not set/ })).toBeVisible();
  await api('/api/settings', {
    method: 'POST',
    body: { mcp_config: { ...(await storedMcp(api)), sse_servers: [{ url: 'https://sse.example.com/sse', api_key: 'sse-key-456' }] } },
  });
  await page.reload();

  // change kind: the stored key would not carry over, and the form says so
  await page.getByRole('button', { name: 'Edit https://sse.example.com/sse' }).click();
  form = drawer(page, 'Edit https://sse.example.com/sse');
  await expect(form.getByTestId('api_key-status')).toHaveText('Set');
  await chooseKind(page, 'Streamable HTTP');
  await expect(form.getByText('The stored API key belongs to the old type and will not be kept')).toBeVisible();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(table.getByRole('row', { name: /Streamable HTTP https:\/\/sse\.example\.com\/sse .* Not set/ })).toBeVisible();

  // delete, with a confirmation that names the server
  await page.getByRole('button', { name: 'Delete files' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete MCP server?' });
  await expect(confirm).toContainText('files');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(table.getByRole('row', { name: /files/ })).toHaveCount(0);

  expect((await api('/api/settings')).json()).toMatchObject({ max_iterations: 42, llm_api_key_set: true });
  expect(await storedMcp(api)).toEqual({
    stdio_servers: [],
    sse_servers: [],
    shttp_servers: [
      { url: 'https://http.example.com/mcp', api_key: null, api_key_set: false, timeout: 45 },
      { url: 'https://sse.example.com/sse', api_key: null, api_key_set: false, timeout: 60 },
    ],
  });
});

test('the form shows every problem at its field before anything is sent', async ({ page, signIn, api }) => {
  await api('/api/settings', { method: 'POST', body: { mcp_config: { stdio_servers: [{ name: 'taken', command: 'uvx' }] } } });
  await openMcp(page, signIn);
  await page.getByRole('button', { name: 'Add server' }).click();
  const form = drawer(page);
  await input(form, 'Name').fill('taken');
  await input(form, 'Command').fill('npx -y thing');
  await form.getByRole('button', { name: 'Add variable' }).click();
  await input(form, 'Variable 1 name').fill('API_KEY');
  await form.getByRole('button', { name: 'Add variable' }).click();
  await input(form, 'Variable 2 name').fill('API_KEY');
  await form.getByRole('button', { name: 'Add variable' }).click();
  await input(form, 'Variable 3 name').fill('2FA');
  await form.getByRole('button', { name: 'Add server' }).click();

  await expect(form.getByText("Duplicate MCP server name 'taken'")).toBeVisible();
  await expect(form.getByText('Command should be a single executable without spaces (use arguments field for parameters)')).toBeVisible();
  await expect(form.getByText('API_KEY is already set above')).toBeVisible();
  await expect(form.getByText('Use letters, digits and underscores, not starting with a digit')).toBeVisible();
  await expect(input(form, 'Variable 2 name')).toHaveAttribute('aria-invalid', 'true');
  expect(((await api('/api/settings')).json() as { mcp_config: { stdio_servers: unknown[] } }).mcp_config.stdio_servers).toHaveLength(1);

  await form.getByRole('button', { name: 'Add variable' }).click(); // still editable, nothing lost
  await expect(input(form, 'Variable 4 name')).toBeVisible();
  await expect(input(form, 'Command')).toHaveValue('npx -y thing');
});

test('server 422s land on the right row and field, also after reordering', async ({ page, signIn, api }) => {
  await api('/api/settings', { method: 'POST', body: { mcp_config: { stdio_servers: [{ name: 'existing', command: 'uvx' }] } } });
  await openMcp(page, signIn);
  await page.getByRole('button', { name: 'Add server' }).click();
  const form = drawer(page);
  await input(form, 'Name').fill('fresh');
  await input(form, 'Command').fill('uvx');
  await input(form, 'Paste as one line').fill('first second third');
  await form.getByRole('button', { name: 'Split into arguments' }).click();
  await form.getByRole('button', { name: 'Move argument 3 up' }).click(); // first third second

  // Let the real server refuse: the new server's third argument becomes a number and the
  // existing server's name invalid, in the body as sent.
  await page.route('**/api/settings', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    const body = route.request().postDataJSON();
    body.mcp_config.stdio_servers[1].args[2] = 42;
    body.mcp_config.stdio_servers[0].name = 'has space';
    return route.continue({ postData: JSON.stringify(body) });
  });
  await form.getByRole('button', { name: 'Add server' }).click();

  await expect(input(form, 'Argument 3')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText('Must be a valid string')).toBeVisible();
  await expect(input(form, 'Argument 1')).not.toHaveAttribute('aria-invalid', 'true');
  const alert = form.getByRole('alert');
  await expect(alert).toContainText('Nothing was saved');
  await expect(alert).toContainText(
    'stdio server “existing” › name: Server name can only contain letters, numbers, hyphens, and underscores',
  );
  // The drawer stays open with everything typed.
  await expect(input(form, 'Argument 2')).toHaveValue('third');
  await expect(input(form, 'Name')).toHaveValue('fresh');
  expect(((await api('/api/settings')).json() as { mcp_config: { stdio_servers: unknown[] } }).mcp_config.stdio_servers).toHaveLength(1);
});

test('import a JSON block with three servers, then export and compare', async ({ page, signIn, api }) => {
  await openMcp(page, signIn);
  await page.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import MCP servers' });
  const block = {
    mcpServers: {
      fetch: { command: 'uvx', args: ['mcp-server-fetch'] },
      linear: { url: 'https://mcp.linear.app/sse', headers: { Authorization: 'Bearer lin_api_abc' } },
      docs: { type: 'http', url: 'https://docs.example.com/mcp' },
      'bad name': { command: 'uvx' },
    },
  };
  await input(dialog, 'JSON').fill(JSON.stringify(block, null, 2));
  const preview = dialog.getByRole('table', { name: 'Import preview' });
  await expect(preview.getByRole('row', { name: /fetch stdio Will be added/ })).toBeVisible();
  await expect(preview.getByRole('row', { name: /linear SSE Will be added/ })).toBeVisible();
  await expect(preview.getByRole('row', { name: /docs Streamable HTTP Will be added/ })).toBeVisible();
  // OpenHands keeps remote servers by URL only: their names cannot come along, and the preview says so.
  await expect(preview.getByRole('row', { name: /linear/ })).toContainText('The name "linear" is not kept');
  await expect(preview.getByRole('row', { name: /bad name .* Server name can only contain/ })).toBeVisible();
  await dialog.getByRole('button', { name: 'Add 3 servers' }).click();
  await expect(dialog).toBeHidden();

  const table = page.getByRole('table', { name: 'MCP servers' });
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('row', { name: /SSE https:\/\/mcp\.linear\.app\/sse .* Set/ })).toBeVisible();
  expect(await storedMcp(api)).toMatchObject({
    stdio_servers: [{ name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], env: {} }],
    sse_servers: [{ url: 'https://mcp.linear.app/sse', api_key_set: true }],
    shttp_servers: [{ url: 'https://docs.example.com/mcp', api_key_set: false }],
  });

  await page.getByRole('button', { name: 'Export' }).click();
  const exported = JSON.parse((await page.getByTestId('mcp-export').textContent()) ?? '');
  expect(exported).toEqual({
    mcpServers: {
      fetch: { command: 'uvx', args: ['mcp-server-fetch'] },
      'mcp-linear-app-sse': { type: 'sse', url: 'https://mcp.linear.app/sse' },
      'docs-example-com-mcp': { type: 'http', url: 'https://docs.example.com/mcp', timeout: 60 },
    },
  });
  expect(JSON.stringify(exported)).not.toContain('lin_api_abc');
});

test('test connection works against real MCP servers and fails clearly otherwise', async ({ page, signIn, api }) => {
  const http = await startHttpMcpServer({ token: 'http-token' });
  try {
    await openMcp(page, signIn);

    // a real stdio server, before saving
    await page.getByRole('button', { name: 'Add server' }).click();
    const form = drawer(page);
    await input(form, 'Name').fill('tools');
    await input(form, 'Command').fill(NODE);
    await form.getByRole('button', { name: 'Add argument' }).click();
    await input(form, 'Argument 1').fill(STDIO_SERVER);
    await form.getByRole('button', { name: 'Test connection' }).click();
    await expect(form.getByRole('status').filter({ hasText: 'Connected: 2 tools' })).toBeVisible({ timeout: 15_000 });
    await expect(form.getByRole('list', { name: 'Tools' })).toContainText('echo — Echoes what it is given');

    // a command that does not exist
    await input(form, 'Command').fill('no-such-mcp-command');
    await form.getByRole('button', { name: 'Test connection' }).click();
    await expect(form.getByRole('alert')).toContainText('no-such-mcp-command: command not found');

    // a server that fails: the last lines it wrote, each on its own line
    await input(form, 'Command').fill('sh');
    await input(form, 'Argument 1').fill('-c');
    await form.getByRole('button', { name: 'Add argument' }).click();
    await input(form, 'Argument 2').fill('printf "starting\\nconfig.json missing\\ngiving up\\n" >&2; exit 3');
    await form.getByRole('button', { name: 'Test connection' }).click();
    const failed = form.getByRole('alert').filter({ hasText: 'process exited with code 3' });
    await expect(failed).toBeVisible({ timeout: 15_000 });
    expect(await failed.innerText()).toContain('process exited with code 3: starting\nconfig.json missing\ngiving up');

    // a real streamable-HTTP server, with its key
    await chooseKind(page, 'Streamable HTTP');
    await input(form, 'URL').fill(http.url);
    await input(form, 'API key').fill('http-token');
    await form.getByRole('button', { name: 'Test connection' }).click();
    await expect(form.getByRole('status').filter({ hasText: 'Connected: 2 tools' })).toBeVisible();
    await form.getByRole('button', { name: 'Add server' }).click();
    await expect(form).toBeHidden();

    // after saving, from the table: the stored key is used
    await page.getByRole('button', { name: `Test ${http.url}` }).click();
    const result = page.getByRole('dialog', { name: `Test connection: ${http.url}` });
    await expect(result.getByRole('status').filter({ hasText: 'Connected: 2 tools' })).toBeVisible();
    expect(http.authorizations.at(-1)).toBe('Bearer http-token');
    await result.getByRole('button', { name: 'Close', exact: true }).click();

    // a URL that refuses connections
    await http.close();
    await page.getByRole('button', { name: `Test ${http.url}` }).click();
    await expect(result.getByRole('alert')).toContainText(`Connection refused at ${new URL(http.url).host} (ECONNREFUSED)`);
    expect((await api('/api/settings')).text).not.toContain('http-token');
  } finally {
    await http.close();
  }
});

test('closing or leaving the editor with unsaved changes asks first', async ({ page, signIn }) => {
  await openMcp(page, signIn);
  await page.getByRole('button', { name: 'Add server' }).click();
  const form = drawer(page);
  await input(form, 'Name').fill('half-done');
  const discard = page.getByRole('dialog', { name: 'Discard unsaved changes?' });

  await page.keyboard.press('Escape');
  await discard.getByRole('button', { name: 'Keep editing' }).click();
  await expect(discard).toBeHidden();
  await expect(input(form, 'Name')).toHaveValue('half-done');

  await page.evaluate(() => history.back()); // the Back button: the only way out past the open drawer
  await discard.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(page).toHaveURL(/\/settings\/mcp$/);
  await expect(input(form, 'Name')).toHaveValue('half-done');

  await form.getByRole('button', { name: 'Cancel' }).click();
  await discard.getByRole('button', { name: 'Discard changes' }).click();
  await expect(form).toBeHidden();

  // Nothing typed: it closes at once.
  await page.getByRole('button', { name: 'Add server' }).click();
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  await expect(discard).toBeHidden();
});

test('the list reads at a glance: quoted arguments, each URL once, whole type badges, tooltips; narrow screens and long forms', async ({
  page,
  signIn,
  api,
}) => {
  await api('/api/settings', {
    method: 'POST',
    body: {
      mcp_config: {
        stdio_servers: [{ name: 'notes', command: 'npx', args: ['-y', 'server-files', '/home/ada/My Notes'] }],
        shttp_servers: [{ url: 'https://docs.example.com/mcp', timeout: 30 }],
      },
    },
  });
  await openMcp(page, signIn);
  const table = page.getByRole('table', { name: 'MCP servers' });
  const notes = table.getByRole('row').filter({ hasText: 'notes' });
  await expect(notes).toContainText("npx -y server-files '/home/ada/My Notes'");
  const docs = table.getByRole('row').filter({ hasText: 'docs.example.com' });
  expect((await docs.innerText()).split('https://docs.example.com/mcp')).toHaveLength(2); // the URL once
  await expect(docs).toContainText('timeout 30 s');
  const badge = docs.getByText('Streamable HTTP', { exact: true });
  expect(await badge.evaluate((label) => label.scrollWidth <= label.clientWidth)).toBe(true); // not cut off

  // An icon button says what it does on keyboard focus too. Again if the row was drawn anew
  // meanwhile (the list is virtualised), which takes the focus away.
  const testButton = page.getByRole('button', { name: 'Test https://docs.example.com/mcp' });
  await expect(async () => {
    await testButton.focus();
    await page.keyboard.press('Shift+Tab'); // focus by keyboard (programmatic focus is not :focus-visible)
    await page.keyboard.press('Tab');
    await expect(testButton).toBeFocused({ timeout: 1000 });
    await expect(page.getByRole('tooltip').filter({ hasText: 'Test connection' })).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 20_000 });

  // A narrow screen: each server is a card with its kind, details and actions in view; nothing
  // scrolls sideways.
  await page.setViewportSize({ width: 375, height: 740 });
  const cards = page.getByRole('list', { name: 'MCP servers' });
  const notesCard = cards.getByRole('listitem').filter({ hasText: 'notes' });
  await expect(notesCard).toContainText("npx -y server-files '/home/ada/My Notes'");
  await expect(notesCard).toContainText('stdio');
  for (const verb of ['Test', 'Edit', 'Delete']) await expect(page.getByRole('button', { name: `${verb} notes` })).toBeInViewport();
  // (polled: the navigation slides away after the resize)
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // A long form on a short screen: the test result is scrolled into view.
  await page.setViewportSize({ width: 1280, height: 480 });
  await page.getByRole('button', { name: 'Edit notes' }).click();
  const form = drawer(page, 'Edit notes');
  await input(form, 'Command').fill('no-such-mcp-command');
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByRole('alert')).toBeInViewport();
});

test('hundreds of servers: only the rows in view are rendered, and Tab and scrolling reach every one', async ({ page, signIn, api }) => {
  // A hundred key presses, each a round trip to the browser: more than the default time on a busy machine.
  test.slow();
  // As many as a config may hold of two kinds: stdio rows come first.
  const name = (i: number) => `server-${String(i).padStart(3, '0')}`;
  const stdio_servers = Array.from({ length: 100 }, (_, i) => ({ name: name(i), command: 'npx', args: ['-y', `package-${i}`] }));
  const sse_servers = Array.from({ length: 100 }, (_, i) => ({ url: `https://mcp-${i}.example.com/sse` }));
  expect((await api('/api/settings', { method: 'POST', body: { mcp_config: { stdio_servers, sse_servers } } })).status).toBe(200);
  await openMcp(page, signIn);
  const table = page.getByRole('table', { name: 'MCP servers' });
  await expect(table.getByRole('row').filter({ hasText: name(0) })).toBeVisible();
  // Test joins Edit and Delete once the server's features are known: three actions a row from then on.
  await expect(page.getByRole('button', { name: `Test ${name(0)}` })).toBeVisible();
  const firstRendered = await table.locator('tr[data-server-id]').count();
  expect(firstRendered).toBeLessThan(60);

  // Focus moves on row by row past the rows first rendered (three actions a row).
  const past = firstRendered + 2;
  await expect(page.getByRole('button', { name: `Delete ${name(past)}` })).toHaveCount(0);
  await page.getByRole('button', { name: `Delete ${name(0)}` }).focus();
  for (let i = 0; i < 3 * past; i++) await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: `Delete ${name(past)}` })).toBeFocused();

  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(table.getByRole('row').filter({ hasText: 'https://mcp-99.example.com/sse' })).toBeInViewport();
  expect(await table.locator('tr[data-server-id]').count()).toBeLessThan(60);
});
