import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { expect, test as onLoopbackAddress } from './support/fixtures';
import { addTeamMember, asMember, onLocalhost } from './support/team';

/*
 * The audit log as an owner reads it: a refused sign-in and a role change are there with who,
 * why and before/after, and the session the role change ended; an entry changed in the database
 * is found by the chain's check.
 */
const test = onLoopbackAddress.extend({ baseURL: async ({ server }, use) => use(onLocalhost(server.url)) });

test('a failed sign-in and a role change appear with their details, and a row changed in the database breaks the chain', async ({
  page,
  server,
}) => {
  test.slow(); // passwords hashed at their real cost
  const bo = await addTeamMember(server, 'bo@example.com', 'member');
  const origin = onLocalhost(server.url);
  const refused = await fetch(`${origin}/sign-in`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bo@example.com', password: 'not the password' }),
  });
  expect(refused.status).toBe(401);

  // The owner makes Bo an admin on the Users page.
  await page.goto(onLocalhost(server.signInLink));
  await page.getByRole('link', { name: 'Users' }).click();
  await page.getByLabel('Role of bo').selectOption('admin');
  await expect(page.getByLabel('Role of bo')).toHaveValue('admin');

  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const log = page.getByRole('table', { name: 'Audit log' });

  // The refused sign-in: who tried, from where, and why.
  await page.getByLabel('Result').selectOption('refused');
  await expect(page).toHaveURL(/result=refused/);
  const signIn = log.getByRole('row').filter({ hasText: 'sign in' });
  await expect(signIn).toHaveCount(1);
  await expect(signIn).toContainText('bo@example.com');
  await signIn.getByRole('button', { name: /^Entry \d+$/ }).click();
  const detail = page.getByRole('dialog', { name: 'Audit log entry' });
  await expect(detail.getByRole('row', { name: /Reason/ })).toContainText('Wrong password');
  await expect(detail.getByRole('row', { name: /How/ })).toContainText('password');
  await page.keyboard.press('Escape');

  // The role change: by whom, and the role before and after.
  await page.getByLabel('Result').selectOption('');
  await page.getByLabel('Resource').selectOption('user');
  await page.getByLabel('Action').selectOption('write');
  await expect(page).toHaveURL(/resource_type=user/);
  const change = log.getByRole('row').filter({ hasText: 'bo@example.com' });
  await expect(change).toHaveCount(1);
  await change.getByRole('button', { name: /^Entry \d+$/ }).click();
  await expect(detail.getByRole('row', { name: /How/ })).toContainText('session key');
  await expect(detail.getByRole('table', { name: 'Changes' }).getByRole('row', { name: /role/ })).toHaveText('rolememberadmin');
  await page.keyboard.press('Escape');

  // What the filters show, as a download.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = fs.readFileSync((await (await download).path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toMatch(/^time,seq,id,user_id,user_name,/);
  expect(csv).toContain('"{""role"":{""old"":""member"",""new"":""admin"",""secret"":false}}"');

  // The role change ended the browser session Bo's invitation gave: by whom, and why.
  await page.getByLabel('Resource').selectOption('session');
  await page.getByLabel('Action').selectOption('end');
  await expect(page).toHaveURL(/action=end/);
  const ended = log.getByRole('row').filter({ hasText: 'bo@example.com' });
  await expect(ended).toHaveCount(1);
  await ended.getByRole('button', { name: /^Entry \d+$/ }).click();
  await expect(detail.getByRole('row', { name: /Reason/ })).toContainText('Their role changed');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Check the chain' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The audit log holds' })).toBeVisible();

  // Someone with the database file rewrites history.
  const database = new SQLite(path.join(server.dataDir, 'agent-console.db'));
  const { seq } = database.prepare("SELECT seq FROM audit_log WHERE action = 'write' AND resource_type = 'user'").get() as { seq: number };
  database.prepare("UPDATE audit_log SET diff = '{}' WHERE seq = ?").run(seq);
  database.close();
  await page.getByRole('button', { name: 'Check the chain' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The audit log does not hold' })).toContainText(
    `Entry ${seq} was changed in the database after it was written.`,
  );

  // Not for members.
  const mo = await addTeamMember(server, 'mo@example.com', 'member');
  expect((await asMember(server, mo, '/api/audit-logs')).status).toBe(403);
  expect((await asMember(server, bo, '/api/audit-logs')).status).toBe(200);
});
