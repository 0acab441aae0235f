import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { insertConversations } from './support/database';
import { expect, test } from './support/fixtures';
import type { RunningServer } from './support/server';
import { publishedUrl } from '../server/testing/published-url';

/**
 * Specs besides the default: one whose agent server takes two seconds to come up (so STARTING
 * can be seen), one that writes a line every 0.2 s, one whose command fails at once (ERROR) and
 * one whose command ends at once without an error (MISSING).
 */
function specsFile(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-specs-')), 'specs.json');
  const agent = `exec "${process.execPath}" "${path.resolve('build/agent-server/main.js')}"`;
  const ticks = 'i=0; while :; do i=$((i+1)); echo "tick $i"; sleep 0.2; done';
  fs.writeFileSync(
    file,
    JSON.stringify([
      { id: 'slow-agent', command: ['sh', '-c', `sleep 2; ${agent}`], initial_env: { MODE: 'slow' } },
      { id: 'chatty', command: ['sh', '-c', `for i in $(seq 1 150); do echo "early line $i"; done; (${ticks}) & ${agent}`] },
      { id: 'broken', command: ['sh', '-c', 'echo "config file missing" >&2; exit 3'] },
      { id: 'gone', command: ['true'] },
    ]),
  );
  return file;
}

test.use({ serverEnv: { SANDBOX_SPECS_FILE: specsFile() } });

const api = async (server: RunningServer, method: string, url: string) => {
  const response = await fetch(`${server.url}${url}`, { method, headers: { 'X-Session-API-Key': server.key } });
  return response.json() as Promise<{ id: string; items: { id: string }[]; isolation?: string }>;
};

/** A sandbox's row in the table, or its card on a narrow screen. */
const row = (page: Page, id: string) => page.locator(`[data-sandbox-id="${id}"]`);
const status = (page: Page, id: string) => row(page, id).locator('[data-status]');
const short = (id: string) => id.slice(0, 8);

/** How far the element is scrolled from its end, in pixels. */
const fromEnd = (element: Locator) => element.evaluate((e) => e.scrollHeight - e.scrollTop - e.clientHeight);

test('start from the specs list in one click, watch it start, call its agent server, pause, resume, read its logs and delete it', async ({
  page,
  server,
}) => {
  await page.goto(server.signInLink);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sandbox specs' }).click();
  const specs = page.getByRole('table', { name: 'Sandbox specs' });
  await expect(specs.getByRole('row')).toHaveCount(6); // header, agent-server (default) and the four above
  await page.getByRole('button', { name: 'Details of slow-agent' }).click();
  const drawer = page.getByRole('dialog', { name: 'Spec slow-agent' });
  await expect(drawer).toContainText('sleep 2; exec');
  await expect(page).toHaveURL(/\/sandbox-specs\?spec=slow-agent$/); // a link to these details…
  await page.reload();
  await expect(drawer).toContainText('sleep 2; exec'); // …that opens them again
  await expect(drawer.getByText('••••••••')).toBeVisible(); // env values hidden…
  await drawer.getByRole('button', { name: 'Show MODE' }).click();
  await expect(drawer.getByText('slow', { exact: true })).toBeVisible(); // …until asked for
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Start a sandbox from slow-agent' }).click();

  await expect(page).toHaveURL(/\/sandboxes$/);
  // What keeps sandboxes apart, as the server says; on CI, where bubblewrap is installed, namespaces.
  const { isolation } = await api(server, 'GET', '/api/v1/sandboxes/capacity');
  if (process.env.CI) expect(isolation).toBe('namespaces');
  if (isolation === 'namespaces') await expect(page.getByTestId('sandbox-runtime')).toContainText('in namespaces of its own.');
  const id = (await api(server, 'GET', '/api/v1/sandboxes/search')).items[0]!.id;
  await expect(page.getByText(`${short(id)} from slow-agent`)).toBeVisible(); // "Sandbox started", with the short id
  await expect(status(page, id)).toHaveText('Starting');
  await expect(status(page, id)).toHaveText('Running', { timeout: 10_000 });
  await expect(page.getByTestId('sandbox-capacity')).toContainText(/· 1 of \d+ exist/);
  const shownId = row(page, id).getByTestId('copy-value').first();
  await expect(shownId).toHaveText(short(id));
  await expect(shownId).toHaveAttribute('title', id);

  // The agent server's URL and key are there to copy (no link to a page that says "Unauthorized"),
  // and calling it as the hint says works.
  await expect(row(page, id).getByRole('link')).toHaveCount(0);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const copied = () => page.evaluate(() => navigator.clipboard.readText());
  await row(page, id)
    .getByRole('button', { name: `Copy id of ${id}` })
    .click();
  expect(await copied()).toBe(id);
  await row(page, id)
    .getByRole('button', { name: `Copy agent server URL of ${id}` })
    .click();
  const url = await copied();
  expect(url).toMatch(publishedUrl);
  await row(page, id)
    .getByRole('button', { name: `Copy session key of ${id}` })
    .click();
  const key = await copied();
  await expect(page.getByTestId('agent-server-hint')).toContainText('X-Session-API-Key');
  expect((await fetch(`${url}/server_info`, { headers: { 'X-Session-API-Key': key } })).status).toBe(200);
  expect((await fetch(`${url}/server_info`)).status).toBe(401);

  await page.getByRole('button', { name: `Pause ${id}` }).click();
  await expect(status(page, id)).toHaveText('Paused');
  await expect(row(page, id).getByText(/http:\/\/127\./)).toHaveCount(0); // no agent URL while paused
  await page.getByRole('button', { name: `Resume ${id}` }).click();
  await expect(status(page, id)).toHaveText(/Starting|Running/);
  await expect(status(page, id)).toHaveText('Running', { timeout: 10_000 });

  await page.getByRole('button', { name: `More actions for ${id}` }).click();
  await page.getByRole('menuitem', { name: 'Logs' }).click();
  const logs = page.getByRole('dialog', { name: `Logs of ${short(id)}` });
  await expect(logs.getByLabel('Log lines')).toContainText(/agent-server \d+\.\d+\.\d+ listening/);
  await expect(page).toHaveURL(new RegExp(`/sandboxes\\?logs=${id}$`));
  await page.reload();
  await expect(logs.getByLabel('Log lines')).toContainText(/agent-server \d+\.\d+\.\d+ listening/);
  await logs.getByRole('button', { name: 'Refresh' }).click();
  await expect(logs.getByLabel('Log lines')).toContainText('listening');
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/sandboxes$/);

  await page.getByRole('button', { name: `More actions for ${id}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete sandbox?' });
  await expect(confirm.getByText(short(id), { exact: true })).toHaveAttribute('title', id);
  await expect(confirm).not.toContainText(id);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(row(page, id)).toHaveCount(0);
  await expect(page.getByText('No sandboxes yet')).toBeVisible();
  // The counts follow the delete at once, not at their next read.
  await expect(page.getByTestId('sandbox-capacity')).toContainText(/^0 of \d+ sandboxes running · 0 of \d+ exist/);
  expect((await api(server, 'GET', '/api/v1/sandboxes/search')).items).toEqual([]);
});

test('the logs follow new output, and stay where the reader scrolled up to', async ({ page, server }) => {
  const { id } = await api(server, 'POST', '/api/v1/sandboxes?sandbox_spec_id=chatty');
  await page.goto(server.signInLink);
  await page.goto(`${server.url}/sandboxes?logs=${id}`);
  const lines = page.getByRole('dialog', { name: `Logs of ${short(id)}` }).getByRole('log', { name: 'Log lines' });
  const lastTick = async () => Number(/tick (\d+)\s*$/.exec(await lines.innerText())?.[1] ?? 0);
  await expect(lines).toContainText('tick 2');

  // New lines come without a click, and the end stays in view.
  const first = await lastTick();
  await expect.poll(lastTick).toBeGreaterThan(first + 5);
  await expect.poll(() => fromEnd(lines)).toBeLessThan(40);

  // Scrolled up, the reader stays where they are while more comes…
  await lines.hover();
  await page.mouse.wheel(0, -100_000);
  await expect.poll(() => lines.evaluate((e) => e.scrollTop)).toBe(0);
  const seen = await lastTick();
  await expect.poll(lastTick).toBeGreaterThan(seen + 5);
  expect(await lines.evaluate((e) => e.scrollTop)).toBe(0);
  // …until they ask for the newest lines.
  await page.getByRole('button', { name: 'Newest' }).click();
  await expect.poll(() => fromEnd(lines)).toBeLessThan(40);
  await expect(page.getByRole('button', { name: 'Newest' })).toHaveCount(0);
});

test('a sandbox that failed or is gone says why, and offers Delete and Start again', async ({ page, server }) => {
  await page.goto(server.signInLink);
  await page.goto(`${server.url}/sandbox-specs?spec=broken`);
  await page.getByRole('dialog', { name: 'Spec broken' }).getByRole('button', { name: 'Start sandbox from this spec' }).click();
  await expect(page.getByText('Sandbox did not start')).toBeVisible();
  await expect(page.getByText(/^[0-9a-f]{8} from broken: The process exited with code 3: config file missing$/)).toBeVisible();
  await expect(page.getByText('Sandbox started')).toHaveCount(0);
  await expect(page).toHaveURL(/\/sandboxes$/);

  const broken = (await api(server, 'GET', '/api/v1/sandboxes/search')).items[0]!.id;
  await expect(status(page, broken)).toHaveText('Error');
  await expect(row(page, broken).getByTestId('status-reason')).toHaveText('The process exited with code 3: config file missing');
  await expect(row(page, broken).getByRole('button', { name: /^Pause / })).toHaveCount(0);
  await page.getByRole('button', { name: `Start again ${broken}` }).click(); // a new one from the same spec
  await expect(page.getByText('Sandbox did not start')).toHaveCount(2);
  await expect(page.locator('[data-sandbox-id]')).toHaveCount(2);
  await page.getByRole('button', { name: `Delete ${broken}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete sandbox?' });
  await expect(confirm).toContainText(`Sandbox ${short(broken)} (broken)`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(row(page, broken)).toHaveCount(0);

  const { id: gone } = await api(server, 'POST', '/api/v1/sandboxes?sandbox_spec_id=gone');
  await page.reload();
  await expect(status(page, gone)).toHaveText('Missing', { timeout: 10_000 });
  await expect(row(page, gone).getByTestId('status-reason')).toHaveText(
    'Its processes are gone: they ended, or were ended outside Agent Console',
  );
  await expect(page.getByRole('button', { name: `Delete ${gone}` })).toBeVisible();
  await expect(page.getByRole('button', { name: `Start again ${gone}` })).toBeVisible();
});

test('bulk pause closes by itself when all went well; filters survive a reload; a bulk delete that partly failed stays open', async ({
  page,
  server,
  signIn,
}) => {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await api(server, 'POST', '/api/v1/sandboxes')).id);
  await signIn(page);
  await page.goto('/sandboxes');
  for (const id of ids) await expect(status(page, id)).toHaveText('Running', { timeout: 10_000 });

  await page.getByRole('checkbox', { name: `Select ${ids[0]}` }).check();
  await page.getByRole('checkbox', { name: `Select ${ids[1]}` }).check();
  const toolbar = page.getByRole('toolbar', { name: 'Selected sandboxes' });
  await expect(toolbar).toContainText('2 selected');
  await toolbar.getByRole('button', { name: 'Pause (2)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pause 2 sandboxes?' });
  await expect(dialog).toContainText(`${short(ids[0]!)} (agent-server)`);
  await dialog.getByRole('button', { name: 'Pause 2 sandboxes' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Paused 2 sandboxes')).toBeVisible();
  await expect(toolbar).toBeHidden(); // the selection is done with
  await expect(status(page, ids[0]!)).toHaveText('Paused');
  await expect(status(page, ids[1]!)).toHaveText('Paused');
  await expect(status(page, ids[2]!)).toHaveText('Running');

  await page.getByLabel('Status').selectOption('PAUSED');
  await expect(page).toHaveURL(/status=PAUSED/);
  await expect(row(page, ids[2]!)).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel('Status')).toHaveValue('PAUSED');
  await expect(status(page, ids[0]!)).toHaveText('Paused');
  await expect(row(page, ids[2]!)).toHaveCount(0);
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(row(page, ids[2]!)).toBeVisible();

  await page.route(
    (url) => url.pathname === `/api/v1/sandboxes/${ids[0]}`,
    (route) =>
      route.request().method() === 'DELETE' ? route.fulfill({ status: 409, json: { detail: 'Cannot delete it now' } }) : route.fallback(),
  );
  await page.getByRole('checkbox', { name: `Select ${ids[0]}` }).check();
  await page.getByRole('checkbox', { name: `Select ${ids[1]}` }).check();
  await toolbar.getByRole('button', { name: 'Delete (2)' }).click();
  const deleting = page.getByRole('dialog', { name: 'Delete 2 sandboxes?' });
  await deleting.getByRole('button', { name: 'Delete 2 sandboxes' }).click();
  await expect(deleting.getByRole('status')).toHaveText('Deleted 1 sandbox.');
  await expect(deleting.getByRole('alert')).toContainText(`1 sandbox failed${short(ids[0]!)}: Cannot delete it now`);
  await deleting.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(row(page, ids[1]!)).toHaveCount(0);
  await expect(status(page, ids[0]!)).toHaveText('Paused');
});

test('a sandbox names the conversations it serves, and pausing or deleting it, alone or in bulk, says so first', async ({
  page,
  server,
}) => {
  const { id } = await api(server, 'POST', '/api/v1/sandboxes');
  const conversation = randomUUID().replaceAll('-', '');
  insertConversations(server.dataDir, [{ id: conversation, title: 'Fix the parser', sandbox_id: id }]);
  await page.goto(server.signInLink);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sandboxes' }).click();
  await expect(status(page, id)).toHaveText('Running', { timeout: 10_000 });
  const link = row(page, id).getByRole('group', { name: 'Conversations in this sandbox' }).getByRole('link', { name: 'Fix the parser' });
  await expect(link).toHaveAttribute('href', `/conversations/${conversation}`);

  await page.getByRole('button', { name: `Pause ${id}` }).click();
  const pause = page.getByRole('dialog', { name: 'Pause sandbox?' });
  await expect(pause).toContainText('serves conversation “Fix the parser”: their agents stop');
  await pause.getByRole('button', { name: 'Pause' }).click();
  await expect(status(page, id)).toHaveText('Paused');

  // A bulk Delete names them too, before anything is deleted.
  await page.getByRole('checkbox', { name: `Select ${id}` }).check();
  await page.getByRole('toolbar', { name: 'Selected sandboxes' }).getByRole('button', { name: 'Delete (1)' }).click();
  const bulk = page.getByRole('dialog', { name: 'Delete 1 sandbox?' });
  await expect(bulk).toContainText(`${short(id)} (agent-server), which serves conversation “Fix the parser”`);
  await expect(bulk).toContainText('Their conversations keep their history and can continue in a new sandbox');
  await bulk.getByRole('button', { name: 'Cancel' }).click();
  await expect(bulk).toHaveCount(0);

  await page.getByRole('button', { name: `More actions for ${id}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const remove = page.getByRole('dialog', { name: 'Delete sandbox?' });
  await expect(remove).toContainText('It serves conversation “Fix the parser”: they keep their history and can continue in a new sandbox');
  await remove.getByRole('button', { name: 'Delete' }).click();
  await expect(row(page, id)).toHaveCount(0);
});

test('a sandbox shared by many conversations names a few and links the list of them all', async ({ page, server }) => {
  const { id } = await api(server, 'POST', '/api/v1/sandboxes');
  const titles = ['Fix the parser', 'Write docs', 'Bump deps', 'Triage alerts', 'Tidy the README'];
  insertConversations(
    server.dataDir,
    titles.map((title, index) => ({
      id: randomUUID().replaceAll('-', ''),
      title,
      sandbox_id: id,
      created_at: new Date(Date.now() - (titles.length - index) * 60_000).toISOString(),
    })),
  );
  const { id: other } = await api(server, 'POST', '/api/v1/sandboxes');
  insertConversations(server.dataDir, [{ id: randomUUID().replaceAll('-', ''), title: 'Elsewhere', sandbox_id: other }]);
  await page.goto(server.signInLink);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sandboxes' }).click();
  const served = row(page, id).getByRole('group', { name: 'Conversations in this sandbox' });
  await expect(served).toContainText('5 conversations');
  await expect(served.getByRole('link')).toHaveText(['Fix the parser', 'Write docs', 'Bump deps', 'and 2 more']);
  await served.getByRole('link', { name: 'and 2 more' }).click();
  await expect(page).toHaveURL(new RegExp(`/conversations\\?sandbox=${id}$`));
  await expect(page.getByRole('button', { name: `In sandbox ${id}: show every sandbox's` })).toBeVisible();
  const list = page.getByRole('table', { name: 'Conversations' });
  await expect(list.getByRole('link')).toHaveText([...titles].reverse());
  await page.getByRole('button', { name: `In sandbox ${id}: show every sandbox's` }).click();
  await expect(list.getByRole('link', { name: 'Elsewhere' })).toBeVisible();
});

test.describe('with one sandbox running at a time', () => {
  test.use({ serverEnv: { MAX_RUNNING_SANDBOXES: '1' } });

  test('says when a start paused another sandbox, and rolls back a refused action with the reason', async ({ page, server }) => {
    const first = (await api(server, 'POST', '/api/v1/sandboxes')).id;
    await page.goto(server.signInLink);
    await page.goto(`${server.url}/sandboxes`);
    await expect(status(page, first)).toHaveText('Running', { timeout: 10_000 });

    await page.getByRole('button', { name: 'Start sandbox' }).first().click();
    await page.getByRole('dialog', { name: 'Start sandbox' }).getByRole('button', { name: 'Start' }).click();
    await expect(
      page.getByText(`Sandbox ${short(first)} was paused to stay within the number of sandboxes that may run at once.`),
    ).toBeVisible();
    await expect(status(page, first)).toHaveText('Paused');

    // The server refuses the resume, and the list cannot be refreshed meanwhile: only the
    // rollback can put the row back to Paused.
    const isSearch = (url: URL) => url.pathname === '/api/v1/sandboxes/search';
    await page.route(isSearch, (route) => route.fulfill({ status: 400, json: { detail: 'No refresh in this test' } }));
    let refuse!: () => void;
    const refused = new Promise<void>((resolve) => (refuse = resolve));
    const isResume = (url: URL) => url.pathname === `/api/v1/sandboxes/${first}/resume`;
    await page.route(isResume, async (route) => {
      await refused;
      await route.fulfill({ status: 409, json: { detail: 'The sandbox cannot be resumed right now' } });
    });
    await page.getByRole('button', { name: `Resume ${first}` }).click();
    await expect(status(page, first)).toHaveText('Resuming…'); // shown at once…
    refuse();
    await expect(page.getByText(`Could not resume ${short(first)}`)).toBeVisible();
    await expect(page.getByText('The sandbox cannot be resumed right now')).toBeVisible();
    await expect(status(page, first)).toHaveText('Paused'); // …and taken back
    await page.unroute(isSearch);
    await page.unroute(isResume);

    // A bulk resume that paused another sandbox stays open to say so.
    await page.getByRole('checkbox', { name: `Select ${first}` }).check();
    await page.getByRole('toolbar', { name: 'Selected sandboxes' }).getByRole('button', { name: 'Resume (1)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Resume 1 sandbox?' });
    await dialog.getByRole('button', { name: 'Resume 1 sandbox' }).click();
    await expect(dialog.getByRole('status').first()).toHaveText('Resumed 1 sandbox.');
    await expect(dialog).toContainText(/Sandbox [0-9a-f]{8} was paused to stay within/);
  });
});

test.describe('on a 375 px wide screen', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  /** Visible, and within the screen's width. */
  async function expectInView(locator: Locator) {
    await expect(locator).toBeVisible();
    const box = (await locator.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
  }
  const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

  test('sandboxes and specs are cards: nothing scrolls sideways, each status and main action in view', async ({ page, server, signIn }) => {
    const { id: running } = await api(server, 'POST', '/api/v1/sandboxes');
    const { id: paused } = await api(server, 'POST', '/api/v1/sandboxes');
    const { id: failed } = await api(server, 'POST', '/api/v1/sandboxes?sandbox_spec_id=broken');
    await signIn(page);
    await page.goto('/sandboxes');
    await expect(status(page, paused)).toHaveText('Running', { timeout: 10_000 });
    await expect(status(page, running)).toHaveText('Running', { timeout: 10_000 });
    // The failed sandbox, the top card, grows a line with its reason as it turns to Error, which
    // moves the cards below it: a click begun before that can end beside its button.
    await expect(status(page, failed)).toHaveText('Error');
    await page.getByRole('button', { name: `Pause ${paused}` }).click();
    await expect(status(page, paused)).toHaveText('Paused');
    await expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(375);
    for (const [id, main] of [
      [running, 'Pause'],
      [paused, 'Resume'],
      [failed, 'Delete'],
    ] as const) {
      await expectInView(status(page, id));
      await expectInView(page.getByRole('button', { name: `${main} ${id}` }));
    }

    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sandbox specs' }).click();
    const specs = page.getByRole('list', { name: 'Sandbox specs' }).getByRole('listitem');
    await expect(specs).toHaveCount(5);
    await expect.poll(() => pageWidth(page)).toBeLessThanOrEqual(375);
    for (const spec of ['agent-server', 'slow-agent', 'chatty', 'broken', 'gone']) {
      await expectInView(page.getByRole('button', { name: `Start a sandbox from ${spec}` }));
    }
    await page.getByRole('button', { name: 'Start a sandbox from agent-server' }).click();
    await expect(page).toHaveURL(/\/sandboxes$/);
    await expect(page.getByText('Sandbox started')).toBeVisible();
  });
});
