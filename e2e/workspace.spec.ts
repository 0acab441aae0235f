import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { action, startConversation } from './support/conversations';
import { expect, test } from './support/fixtures';

/*
 * A conversation's workspace on its page: each edit's diff on the timeline, the Changes tab (a
 * file's diff, unified or split), the Files tab (a folder, a file shown, a file and the whole
 * workspace downloaded). The demo model writes demo-notes.md in a workspace of its own.
 */

/** The one file called `name` under `dir`, found on disk. */
function findFile(dir: string, name: string): string {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.name === name && entry.isFile()) return path.join(entry.parentPath, entry.name);
  }
  throw new Error(`${name} is not under ${dir}`);
}

test('an edit shows its diff; Changes and Files show the workspace, and a file and the workspace download', async ({
  page,
  signIn,
  server,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  await startConversation(page, 'Write some notes', { useDemo: true });

  const edit = action(page, 'Create demo-notes.md');
  await expect(edit).toContainText('Done', { timeout: 30_000 });
  const timelineDiff = edit.getByRole('figure', { name: 'Diff of demo-notes.md' });
  await expect(timelineDiff).toContainText('# Demo notes');
  await expect(timelineDiff.locator('td.diff-code-insert').first()).toContainText('# Demo notes');

  await page.getByRole('tab', { name: 'Changes' }).click();
  const files = page.getByRole('navigation', { name: 'Changed files' });
  await expect(files.getByRole('button', { name: /demo-notes\.md/ })).toContainText('Added');
  await files.getByRole('button', { name: /demo-notes\.md/ }).click();
  const diff = page.getByRole('figure', { name: 'Diff of demo-notes.md' });
  await expect(diff).toContainText('This file was written by the demo model');
  await expect(diff.locator('table.diff-unified')).toBeVisible();
  // A segmented control: its radio inputs are hidden behind their labels.
  await page
    .locator('label')
    .filter({ hasText: /^Split$/ })
    .click();
  await expect(page.getByRole('radio', { name: 'Split' })).toBeChecked();
  await expect(diff.locator('table.diff-split')).toBeVisible();
  await expect(page).toHaveURL(/[?&]tab=changes/);
  await expect(page).toHaveURL(/[?&]file=demo-notes\.md/);
  await expect(page).toHaveURL(/[?&]diff=split/);
  // The URL is the view: a reload (or a shared link) opens the same diff, split.
  await page.reload();
  await expect(page.getByRole('figure', { name: 'Diff of demo-notes.md' }).locator('table.diff-split')).toBeVisible();

  await page.getByRole('tab', { name: 'Files' }).click();
  const table = page.getByRole('table', { name: 'Files' });
  await expect(table.getByRole('button', { name: /\.git/ })).toBeVisible();
  await table.getByRole('button', { name: /demo-notes\.md/ }).click();
  const shown = page.getByRole('region', { name: 'File demo-notes.md' });
  await expect(shown).toContainText('Choose a real LLM in Settings');

  const [download] = await Promise.all([page.waitForEvent('download'), shown.getByRole('button', { name: 'Download' }).click()]);
  expect(download.suggestedFilename()).toBe('demo-notes.md');
  expect(fs.readFileSync(await download.path(), 'utf8')).toContain('# Demo notes');

  const [archive] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download workspace (.tar.gz)' }).click(),
  ]);
  expect(archive.suggestedFilename()).toMatch(/\.tar\.gz$/);
  const names = execFileSync('tar', ['-tzf', await archive.path()]).toString();
  expect(names).toContain('./demo-notes.md');

  // A folder opens, and the breadcrumb goes back.
  await table.getByRole('button', { name: /\.git/ }).click();
  await expect(table.getByRole('button', { name: /HEAD/ })).toBeVisible();
  await expect(page).toHaveURL(/[?&]dir=\.git/);
  await page.getByRole('navigation', { name: 'Folder' }).getByRole('button', { name: 'workspace' }).click();
  await expect(table.getByRole('button', { name: /demo-notes\.md/ })).toBeVisible();

  // A link the agent made to the sandbox's root is listed as a link, and not followed.
  fs.symlinkSync('/', path.join(path.dirname(findFile(server.dataDir, 'demo-notes.md')), 'host'));
  await page.reload();
  const link = table.getByRole('button', { name: /host\s*→ \// });
  await expect(link).toBeDisabled();
  await expect(link).toHaveAccessibleName(/^Link \(not followed\) host\s*→ \/$/);
  await page.goto(`${new URL(page.url()).pathname}?tab=files&dir=host`);
  await expect(page.getByText('host is a link out of the workspace: it is not followed')).toBeVisible();
});

test('a conversation whose sandbox is gone goes on in a new one: the page says what carried over, and the agent answers there', async ({
  page,
  signIn,
  api,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  await startConversation(page, 'Write some notes', { useDemo: true });
  await expect(page.locator('[data-execution]')).toHaveAttribute('data-execution', 'finished', { timeout: 30_000 });
  const id = page.url().split('/').at(-1)!;
  const [conversation] = (await (await api(`/api/v1/app-conversations?ids=${id}`)).json()) as { sandbox_id: string }[];
  expect((await api(`/api/v1/sandboxes/${conversation!.sandbox_id}`, { method: 'DELETE' })).status).toBe(200);

  await expect(page.getByText(/Its sandbox is gone/)).toBeVisible({ timeout: 20_000 });
  // The new sandbox's start is followed through the server's stream, not by asking for its task again and again.
  const asked = { streams: 0, taskReads: 0 };
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname === `/api/v1/app-conversations/${id}/continue-in-new-sandbox/stream`) asked.streams++;
    if (pathname.startsWith('/api/v1/app-conversations/start-tasks')) asked.taskReads++;
  });
  // The Changes tab cannot read a workspace that is gone: it offers to go on in a new sandbox too.
  await page.getByRole('tab', { name: 'Changes' }).click();
  await expect(page.getByText('Its sandbox is gone, and its workspace with it: the changes cannot be read.')).toBeVisible();
  await page.getByRole('button', { name: 'Continue in a new sandbox' }).click();
  // Once it runs, the tab reads the new workspace (the old one's files did not carry over).
  await expect(page.getByText('No changes in the workspace yet.')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('tab', { name: 'Conversation' }).click();
  const log = page.getByRole('log', { name: 'Conversation events' });
  const note = log.getByRole('note', { name: 'Continued in a new sandbox' });
  await expect(note).toContainText('The workspace starts empty: the files of the old one did not carry over.', { timeout: 30_000 });
  await expect(page.locator('[data-status]').first()).toHaveText('Running');
  expect(asked).toEqual({ streams: 1, taskReads: 0 });
  // The history is still there, once, and the agent in the new sandbox answers.
  await expect(log.getByRole('group', { name: 'Your message' })).toHaveCount(1);
  const composer = page.getByRole('textbox', { name: 'Message to the agent' });
  await composer.fill('Are you still there?');
  await composer.press('ControlOrMeta+Enter');
  await expect(log.getByRole('group', { name: 'Your message' }).last()).toContainText('Are you still there?');
  await expect(
    log
      .locator('[data-index]')
      .last()
      .getByRole('group', { name: /^Agent's (final )?message$/ }),
  ).toBeVisible({ timeout: 30_000 });
});
