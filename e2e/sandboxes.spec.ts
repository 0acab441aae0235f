import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import type { RunningServer } from './support/server';

/** A spec whose agent server takes two seconds to come up, so STARTING can be seen. */
function specsFile(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-specs-')), 'specs.json');
  const agent = path.resolve('build/agent-server/main.js');
  fs.writeFileSync(
    file,
    JSON.stringify([
      { id: 'slow-agent', command: ['sh', '-c', `sleep 2; exec "${process.execPath}" "${agent}"`], initial_env: { MODE: 'slow' } },
    ]),
  );
  return file;
}

const api = async (server: RunningServer, method: string, url: string) => {
  const response = await fetch(`${server.url}${url}`, { method, headers: { 'X-Session-API-Key': server.key } });
  return response.json() as Promise<{ id: string; items: { id: string }[] }>;
};

const row = (page: Page, id: string) => page.getByRole('table', { name: 'Sandboxes' }).locator(`tr[data-sandbox-id="${id}"]`);
const status = (page: Page, id: string) => row(page, id).locator('[data-status]');

test.describe('with a spec that starts slowly', () => {
  test.use({ serverEnv: { SANDBOX_SPECS_FILE: specsFile() } });

  test('start from the specs page, watch it start, pause, resume, read its logs and delete it', async ({ page, server }) => {
    await page.goto(server.signInLink);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sandbox specs' }).click();
    const specs = page.getByRole('table', { name: 'Sandbox specs' });
    await expect(specs.getByRole('row')).toHaveCount(3); // header, agent-server (default), slow-agent
    await page.getByRole('button', { name: 'Details of slow-agent' }).click();
    const drawer = page.getByRole('dialog', { name: 'Spec slow-agent' });
    await expect(drawer).toContainText('sleep 2; exec');
    await expect(page).toHaveURL(/\/sandbox-specs\?spec=slow-agent$/); // a link to these details…
    await page.reload();
    await expect(drawer).toContainText('sleep 2; exec'); // …that opens them again
    await expect(drawer.getByText('••••••••')).toBeVisible(); // env values hidden…
    await drawer.getByRole('button', { name: 'Show MODE' }).click();
    await expect(drawer.getByText('slow', { exact: true })).toBeVisible(); // …until asked for
    await drawer.getByRole('button', { name: 'Start sandbox from this spec' }).click();

    await expect(page).toHaveURL(/\/sandboxes$/);
    const id = (await api(server, 'GET', '/api/v1/sandboxes/search')).items[0]!.id;
    await expect(status(page, id)).toHaveText('Starting');
    await expect(status(page, id)).toHaveText('Running', { timeout: 10_000 });
    await expect(row(page, id)).toContainText(id.slice(0, 8));
    await expect(row(page, id).getByRole('link')).toHaveAttribute('href', /^http:\/\/127\.0\.0\.1:\d+$/);

    await page.getByRole('button', { name: `Pause ${id}` }).click();
    await expect(status(page, id)).toHaveText('Paused');
    await expect(row(page, id).getByRole('link')).toHaveCount(0); // no agent URL while paused
    await page.getByRole('button', { name: `Resume ${id}` }).click();
    await expect(status(page, id)).toHaveText(/Starting|Running/);
    await expect(status(page, id)).toHaveText('Running', { timeout: 10_000 });

    await page.getByRole('button', { name: `More actions for ${id}` }).click();
    await page.getByRole('menuitem', { name: 'Logs' }).click();
    const logs = page.getByRole('dialog', { name: `Logs of ${id}` });
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
    await expect(confirm).toContainText(id);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(row(page, id)).toHaveCount(0);
    await expect(page.getByText('No sandboxes yet')).toBeVisible();
    expect((await api(server, 'GET', '/api/v1/sandboxes/search')).items).toEqual([]);
  });
});

test.describe('with a spec whose command fails', () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-specs-')), 'specs.json');
  fs.writeFileSync(file, JSON.stringify([{ id: 'broken', command: ['sh', '-c', 'echo "config file missing" >&2; exit 3'] }]));
  test.use({ serverEnv: { SANDBOX_SPECS_FILE: file } });

  test('a start that fails at once says so, with the reason, instead of "started"', async ({ page, server }) => {
    await page.goto(server.signInLink);
    await page.goto(`${server.url}/sandbox-specs?spec=broken`);
    await page.getByRole('dialog', { name: 'Spec broken' }).getByRole('button', { name: 'Start sandbox from this spec' }).click();
    await expect(page.getByText('Sandbox did not start')).toBeVisible();
    await expect(page.getByText(/from broken: The process exited with code 3: config file missing/)).toBeVisible();
    await expect(page.getByText('Sandbox started')).toHaveCount(0);
  });
});

test('bulk pause two sandboxes, with progress and a summary, and filters that survive a reload', async ({ page, server, signIn }) => {
  const ids = [];
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
  await expect(dialog).toContainText(ids[0]!);
  await dialog.getByRole('button', { name: 'Pause 2 sandboxes' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Paused 2 sandboxes.');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
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
      page.getByText(`Sandbox ${first.slice(0, 8)} was paused to stay within the number of sandboxes that may run at once.`),
    ).toBeVisible();
    await expect(status(page, first)).toHaveText('Paused');

    // The server refuses the resume, and the list cannot be refreshed meanwhile: only the
    // rollback can put the row back to Paused.
    const isSearch = (url: URL) => url.pathname === '/api/v1/sandboxes/search';
    await page.route(isSearch, (route) => route.fulfill({ status: 400, json: { detail: 'No refresh in this test' } }));
    let refuse!: () => void;
    const refused = new Promise<void>((resolve) => (refuse = resolve));
    await page.route(
      (url) => url.pathname === `/api/v1/sandboxes/${first}/resume`,
      async (route) => {
        await refused;
        await route.fulfill({ status: 409, json: { detail: 'The sandbox cannot be resumed right now' } });
      },
    );
    await page.getByRole('button', { name: `Resume ${first}` }).click();
    await expect(status(page, first)).toHaveText('Resuming…'); // shown at once…
    refuse();
    await expect(page.getByText(`Could not resume ${first.slice(0, 8)}`)).toBeVisible();
    await expect(page.getByText('The sandbox cannot be resumed right now')).toBeVisible();
    await expect(status(page, first)).toHaveText('Paused'); // …and taken back
    await page.unroute(isSearch);
  });
});
