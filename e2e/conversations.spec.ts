import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startDumbHttpRepo } from '../test-support/git/dumb-http-repo';
import { insertConversations } from './support/database';
import { expect, test } from './support/fixtures';

test('start a conversation: a failed start says why and Retry works once fixed; follow the steps, land on it, rename, find, archive and delete it', async ({
  page,
  signIn,
  api,
  server,
}) => {
  test.setTimeout(90_000);
  // The setup script waits for a file the test creates in the sandbox's home (its /tmp is its own), so its step is seen without racing.
  const go = `go-${randomUUID()}`;
  const repo = await startDumbHttpRepo(
    { 'octo/hello': { files: { 'README.md': '# hello\n', '.openhands/setup.sh': `while [ ! -f "$HOME/${go}" ]; do sleep 0.1; done\n` } } },
    'ghp_e2e_token',
  );
  // Starts are followed through the server's stream, not by asking for their task again and again.
  const asked = { streams: 0, taskReads: 0 };
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname === '/api/v1/app-conversations/stream-start') asked.streams++;
    if (pathname === '/api/v1/app-conversations/start-tasks') asked.taskReads++;
  });
  try {
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversations' }).click();
    await expect(page.getByText('No conversations yet')).toBeVisible();

    await page.getByRole('button', { name: 'New conversation' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New conversation' });
    await dialog.getByLabel('What should the agent do?').fill('Refactor the parser module\nand keep the tests green');
    await dialog.getByLabel('Repository').fill('octo/hello');
    await dialog.getByRole('button', { name: 'Start' }).click();

    // No provider is connected yet: the start fails and says so.
    const start = page.getByRole('group', { name: 'Start of Refactor the parser module' });
    await expect(start.getByRole('alert')).toContainText('Choose a git provider for octo/hello: none is connected');
    // The notice that it is starting goes with the failure.
    await expect(page.getByRole('alert').filter({ hasText: 'Conversation starting' })).toHaveCount(0);

    // Once it is connected, Retry starts it again; the steps show, up to the setup script.
    await api('/api/add-git-providers', {
      method: 'POST',
      body: { provider_tokens: { github: { token: 'ghp_e2e_token', host: repo.host } } },
    });
    await start.getByRole('button', { name: 'Retry' }).click();
    await expect(start.locator('[data-step]')).toHaveAttribute('data-step', 'RUNNING_SETUP_SCRIPT', { timeout: 20_000 });
    await expect(start).toContainText('Step 4 of 7: Running the setup script');
    const homes = path.join(server.dataDir, 'sandboxes');
    const [home] = fs.readdirSync(homes).filter((name) => !name.startsWith('.'));
    fs.writeFileSync(path.join(homes, home!, go), '');

    // Ready: its page opens.
    await expect(page.getByRole('heading', { name: 'Refactor the parser module', level: 1 })).toBeVisible({ timeout: 20_000 });
    await expect(page).toHaveURL(/\/conversations\/[0-9a-f]{32}$/);
    const url = page.url();
    await expect(page.getByText('octo/hello', { exact: true })).toBeVisible();
    await expect(page.locator('[data-status]').first()).toHaveText('Running');
    expect(asked).toEqual({ streams: 2, taskReads: 0 });

    // Rename inline: the page and the list agree at once, and after a reload.
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('textbox', { name: 'Title' }).fill('Parser refactor');
    await page.getByRole('textbox', { name: 'Title' }).press('Enter');
    await expect(page.getByRole('heading', { name: 'Parser refactor', level: 1 })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Parser refactor', level: 1 })).toBeVisible();
    await page.getByRole('link', { name: '← Conversations' }).click();
    const table = page.getByRole('table', { name: 'Conversations' });
    await expect(table.getByRole('link', { name: 'Parser refactor' })).toBeVisible();
    await expect(page.getByText('1 conversation', { exact: true })).toBeVisible();
    await expect(page.getByTestId('sandbox-capacity')).toHaveText('1 of 5 sandboxes running · 1 of 20 exist');

    // Search by a word of the title; the filter is in the URL and survives a reload.
    await page.getByLabel('Search titles').fill('zzz');
    await expect(page.getByText('No conversations match these filters')).toBeVisible();
    await page.getByLabel('Search titles').fill('PARSER');
    await expect(page).toHaveURL(/q=PARSER/);
    await page.reload();
    await expect(page.getByLabel('Search titles')).toHaveValue('PARSER');
    await expect(table.getByRole('link', { name: 'Parser refactor' })).toBeVisible();

    // Archive hides it until "Archived" is on.
    await page.getByRole('checkbox', { name: 'Select Parser refactor' }).click();
    await expect(page.getByRole('checkbox', { name: 'Select Parser refactor' })).toBeChecked();
    await page.getByRole('toolbar', { name: 'Selected conversations' }).getByRole('button', { name: 'Archive (1)' }).click();
    await page.getByRole('dialog', { name: 'Archive 1 conversation?' }).getByRole('button', { name: 'Archive 1' }).click();
    await expect(page.getByText('No conversations match these filters')).toBeVisible();
    // The switch follows the URL, which changes a moment after the click: no .check() here.
    await page.getByRole('switch', { name: 'Archived' }).click();
    await expect(page).toHaveURL(/archived=true/);
    await expect(page.getByRole('switch', { name: 'Archived' })).toBeChecked();
    await expect(table.getByRole('link', { name: 'Parser refactor' })).toBeVisible();

    // Delete asks, then it is gone, and so is the sandbox it started.
    await page.goto(url);
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete conversation?' });
    await expect(confirm).toContainText('Parser refactor');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/conversations$/);
    await expect(page.getByTestId('sandbox-capacity')).toHaveText('0 of 5 sandboxes running · 0 of 20 exist');
    expect((await api('/api/v1/app-conversations/count?archived=true')).json()).toBe(0);
    expect((await api('/api/v1/sandboxes/search')).json()).toMatchObject({ items: [] });
  } finally {
    await repo.close();
  }
});

test('a dismissed failed start stays dismissed after a reload and a server restart', async ({ page, signIn, api, server }) => {
  await api('/api/v1/app-conversations', { method: 'POST', body: { title: 'Clone what is not there', selected_repository: 'octo/hello' } });
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversations' }).click();
  const start = page.getByRole('group', { name: 'Start of Clone what is not there' });
  await expect(start.getByRole('button', { name: 'Dismiss' })).toBeVisible();
  await start.getByRole('button', { name: 'Dismiss' }).click();
  await expect(start).toHaveCount(0);
  await server.restart();
  await page.reload();
  await expect(page.getByText('No conversations yet')).toBeVisible();
  await expect(start).toHaveCount(0);
});

test('hundreds of conversations: only the rows in view are rendered, and Tab and scrolling reach every one', async ({
  page,
  signIn,
  server,
}) => {
  // Many key presses, each a round trip to the browser: more than the default time on a busy machine.
  test.slow();
  // Written straight into the server's database: starting 150 conversations would start 150 sandboxes.
  const start = Date.parse('2026-01-01T00:00:00Z');
  insertConversations(
    server.dataDir,
    Array.from({ length: 150 }, (_, i) => {
      const at = new Date(start + i * 60_000).toISOString();
      return { id: randomUUID().replaceAll('-', ''), title: `Task ${String(i).padStart(3, '0')}`, created_at: at, updated_at: at };
    }),
  );
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversations' }).click();
  const table = page.getByRole('table', { name: 'Conversations' });
  const rendered = table.locator('tr[data-conversation-id]');
  // Newest first; 50 a page.
  await expect(table.getByRole('link', { name: 'Task 149' })).toBeVisible();
  expect(await rendered.count()).toBeLessThan(40);
  // The last row of each page, at the end of the page once it has come.
  const atTheEnd = (title: string) =>
    expect(async () => {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect(table.getByRole('link', { name: title })).toBeInViewport({ timeout: 500 });
    }).toPass();
  for (const last of ['Task 050', 'Task 000']) {
    await page.getByRole('button', { name: 'Load more' }).click();
    await atTheEnd(last);
  }
  expect(await rendered.count()).toBeLessThan(40);

  // Focus moves on row by row past the rows rendered at the top (a checkbox and a link a row).
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(table.getByRole('link', { name: 'Task 149' })).toBeInViewport();
  const past = (await rendered.count()) + 2;
  await expect(page.getByRole('checkbox', { name: `Select Task ${149 - past}` })).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Select Task 149' }).focus();
  for (let i = 0; i < 2 * past; i++) await page.keyboard.press('Tab');
  await expect(page.getByRole('checkbox', { name: `Select Task ${149 - past}` })).toBeFocused();
  expect(await rendered.count()).toBeLessThan(40);

  await atTheEnd('Task 000');
});

test('a conversation links the sub-conversations it started, which the list hides, and each links back to it', async ({
  page,
  signIn,
  server,
}) => {
  const [parent, sub] = [randomUUID(), randomUUID()].map((id) => id.replaceAll('-', '')) as [string, string];
  insertConversations(server.dataDir, [
    { id: parent, title: 'Ship the release', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' },
    {
      id: sub,
      title: 'Write the changelog',
      parent_conversation_id: parent,
      created_at: '2026-01-01T00:01:00.000Z',
      updated_at: '2026-01-01T00:01:00.000Z',
    },
  ]);
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversations' }).click();
  const table = page.getByRole('table', { name: 'Conversations' });
  await expect(table.getByRole('link', { name: 'Ship the release' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'Write the changelog' })).toHaveCount(0);
  await expect(page.getByText('1 conversation', { exact: true })).toBeVisible();

  await table.getByRole('link', { name: 'Ship the release' }).click();
  const details = page.getByRole('region', { name: 'Details' });
  await details.getByRole('link', { name: 'Write the changelog' }).click();
  await expect(page.getByRole('heading', { name: 'Write the changelog', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/conversations/${sub}$`));
  await details.getByRole('link', { name: 'Ship the release' }).click();
  await expect(page.getByRole('heading', { name: 'Ship the release', level: 1 })).toBeVisible();
});

test.describe('on a 375 px wide screen', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('conversations are cards: title, both statuses and times in view, nothing scrolls sideways, and they select', async ({
    page,
    signIn,
    server,
  }) => {
    const id = randomUUID().replaceAll('-', '');
    insertConversations(server.dataDir, [
      { id, title: 'A rather long title for a conversation about the parser', selected_repository: 'octo/hello' },
    ]);
    await signIn(page);
    await page.goto('/conversations');
    const card = page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').filter({ hasText: 'A rather long title' });
    await expect(card.getByRole('link', { name: 'A rather long title for a conversation about the parser' })).toHaveAttribute(
      'href',
      `/conversations/${id}`,
    );
    await expect(card).toContainText('octo/hello');
    // Its sandbox is gone: its badge says so, in view.
    await expect(card.locator('[data-status]')).toHaveText('Missing');
    await expect(card.locator('[data-status]')).toBeInViewport();
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await card.getByRole('checkbox', { name: /^Select A rather long title/ }).check();
    await expect(page.getByRole('toolbar', { name: 'Selected conversations' }).getByRole('button', { name: 'Delete (1)' })).toBeVisible();
  });
});
