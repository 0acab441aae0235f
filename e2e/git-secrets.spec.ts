import type { Locator, Page } from '@playwright/test';
import { startFakeProvider } from '../test-support/git/fake-provider';
import { builtAssetPath } from './support/built-assets';
import { expect, test } from './support/fixtures';

const input = (scope: Page | Locator, label: string) => scope.locator('input, textarea').and(scope.getByLabel(label, { exact: true }));
const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

async function openGit(page: Page, signIn: (page: Page) => Promise<void>) {
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Git & secrets' }).click();
  await expect(page.getByRole('heading', { name: 'Git & secrets', level: 1 })).toBeVisible();
}

/** The custom secrets tab, one click from the page (and its own URL). */
async function openSecrets(page: Page, signIn: (page: Page) => Promise<void>) {
  await openGit(page, signIn);
  await page.getByRole('tab', { name: /Custom secrets/ }).click();
  await expect(page).toHaveURL(/[?&]tab=secrets/);
}

test('connect GitHub and a self-hosted GitLab, reload, disconnect one', async ({ page, signIn, api }) => {
  await openGit(page, signIn);

  const github = card(page, 'GitHub');
  await expect(github.getByTestId('github-status')).toHaveText('Not connected');
  await input(github, 'GitHub token').fill('ghp_e2eGithubToken123');
  await github.getByRole('button', { name: 'Connect' }).click();
  // Nothing asked GitHub: saved, not verified.
  await expect(github.getByTestId('github-status')).toHaveText('Saved, not verified');
  await expect(github.getByTestId('github-host')).toHaveText('github.com');

  const gitlab = card(page, 'GitLab');
  await input(gitlab, 'GitLab token').fill('glpat-e2eGitlabToken456');
  await input(gitlab, 'GitLab host').fill('gitlab.mycorp.com');
  await gitlab.getByRole('button', { name: 'Connect' }).click();
  await expect(gitlab.getByTestId('gitlab-host')).toHaveText('gitlab.mycorp.com');

  await page.reload();
  await expect(github.getByTestId('github-status')).toHaveText('Saved, not verified');
  await expect(gitlab.getByTestId('gitlab-status')).toHaveText('Saved, not verified');
  await expect(gitlab.getByTestId('gitlab-host')).toHaveText('gitlab.mycorp.com');
  await expect(input(gitlab, 'GitLab host')).toHaveValue('gitlab.mycorp.com');
  await expect(input(gitlab, 'GitLab token')).toHaveValue('');
  await expect(gitlab.getByTestId('token-status')).toHaveCount(0); // one status badge per card
  const raw = await api('/api/settings');
  expect(raw.text).not.toContain('ghp_e2eGithubToken123');
  expect(raw.text).not.toContain('glpat-e2eGitlabToken456');
  expect(raw.json()).toMatchObject({ provider_tokens_set: { github: null, gitlab: 'gitlab.mycorp.com' } });

  // Disconnecting GitHub leaves GitLab (and its token) alone.
  await github.getByRole('button', { name: 'Disconnect' }).click();
  const dialog = page.getByRole('dialog', { name: 'Disconnect GitHub?' });
  await dialog.getByRole('button', { name: 'Disconnect' }).click();
  await expect(github.getByTestId('github-status')).toHaveText('Not connected');
  await expect(gitlab.getByTestId('gitlab-host')).toHaveText('gitlab.mycorp.com');
  expect((await api('/api/settings')).json()).toMatchObject({ provider_tokens_set: { gitlab: 'gitlab.mycorp.com' } });

  // Changing only GitLab's host keeps its token.
  await input(gitlab, 'GitLab host').fill('https://git.mycorp.com');
  await gitlab.getByRole('button', { name: 'Save' }).click();
  await expect(gitlab.getByTestId('gitlab-host')).toHaveText('https://git.mycorp.com');

  await page.getByRole('button', { name: 'Disconnect all' }).click();
  await page.getByRole('dialog', { name: 'Disconnect all git providers?' }).getByRole('button', { name: 'Disconnect all' }).click();
  await expect(gitlab.getByTestId('gitlab-status')).toHaveText('Not connected');
});

test('Verify asks the provider about the stored token and shows its verdict; a new token is unverified again', async ({
  page,
  signIn,
  api,
}) => {
  const provider = await startFakeProvider(['ghp_good']);
  try {
    await api('/api/add-git-providers', {
      method: 'POST',
      body: { provider_tokens: { github: { token: 'ghp_good', host: provider.url } } },
    });
    await openGit(page, signIn);
    const github = card(page, 'GitHub');
    await expect(github.getByTestId('github-status')).toHaveText('Saved, not verified');

    await github.getByRole('button', { name: 'Verify' }).click();
    await expect(github.getByRole('status')).toHaveText('GitHub accepted the token');
    await expect(github.getByTestId('github-status')).toHaveText('Verified');
    await expect(github.getByTestId('github-host')).toContainText(`${provider.url} · verified`);
    expect(provider.requests.at(-1)).toEqual({ path: '/api/v3/user', authorization: 'Bearer ghp_good' });
    await page.reload();
    await expect(github.getByTestId('github-status')).toHaveText('Verified'); // stored by the server

    // A new token the provider refuses: saved, then Verify says why.
    await input(github, 'GitHub token').fill('ghp_revoked');
    await github.getByRole('button', { name: 'Save' }).click();
    await expect(github.getByTestId('github-status')).toHaveText('Saved, not verified');
    await github.getByRole('button', { name: 'Verify' }).click();
    await expect(github.getByRole('status')).toHaveText('GitHub rejected the token (HTTP 401: Bad credentials)');
    await expect(github.getByTestId('github-status')).toHaveText('Saved, not verified');
  } finally {
    await provider.close();
  }
});

test('Enterprise SSO needs its host, in the form as on the server, and says it cannot be verified', async ({ page, signIn }) => {
  await openGit(page, signIn);
  const sso = card(page, 'Enterprise SSO');
  await input(sso, 'Enterprise SSO token').fill('sso-token');
  await sso.getByRole('button', { name: 'Connect' }).click();
  await expect(sso.getByText('Enterprise SSO needs the host of your server')).toBeVisible();
  await expect(sso.getByTestId('enterprise_sso-status')).toHaveText('Not connected');

  // marked as needed (an asterisk)
  await sso.getByRole('textbox', { name: /^Enterprise SSO host/ }).fill('sso.mycorp.com');
  await sso.getByRole('button', { name: 'Connect' }).click();
  await expect(sso.getByTestId('enterprise_sso-status')).toHaveText('Saved, not verified');
  await sso.getByRole('button', { name: 'Verify' }).click();
  await expect(sso.getByRole('status')).toHaveText('Enterprise SSO has no API to check a token with: it is used as given');
});

test('a bad host is shown at that field, whether the form or the server finds it', async ({ page, signIn, api }) => {
  await openGit(page, signIn);
  const gitlab = card(page, 'GitLab');
  await input(gitlab, 'GitLab token').fill('glpat-abc');
  await input(gitlab, 'GitLab host').fill('gitlab.mycorp.com/some/path');
  await gitlab.getByRole('button', { name: 'Connect' }).click();
  await expect(gitlab.getByText('Host must be a domain such as gitlab.example.com')).toBeVisible();
  await expect(input(gitlab, 'GitLab host')).toHaveAttribute('aria-invalid', 'true');

  // The server's own 422 lands in the same place, and what was typed stays.
  await input(gitlab, 'GitLab host').fill('gitlab.mycorp.com');
  await page.route('**/api/add-git-providers', async (route) => {
    const body = route.request().postDataJSON();
    body.provider_tokens.gitlab.host = 'ftp://gitlab.mycorp.com';
    await route.continue({ postData: JSON.stringify(body) });
  });
  await gitlab.getByRole('button', { name: 'Connect' }).click();
  await expect(gitlab.getByText('Host must be a domain such as gitlab.example.com')).toBeVisible();
  await expect(input(gitlab, 'GitLab host')).toHaveValue('gitlab.mycorp.com');
  await expect(input(gitlab, 'GitLab token')).toHaveValue('glpat-abc');
  expect((await api('/api/settings')).json()).toMatchObject({ provider_tokens_set: {} });
});

test('custom secrets: create, duplicate name, rename, change the value, delete', async ({ page, signIn, api }) => {
  await openSecrets(page, signIn);
  await expect(page.getByText('No custom secrets yet')).toBeVisible();

  await page.getByRole('button', { name: 'Add secret' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add secret' });
  await input(dialog, 'Name').fill('API_TOKEN');
  await input(dialog, 'Value').fill('first-secret-value');
  await input(dialog, 'Description').fill('Staging API');
  await dialog.getByRole('button', { name: 'Add secret' }).click();
  await expect(dialog).toBeHidden();
  const table = page.getByRole('table', { name: 'Custom secrets' });
  await expect(table.getByRole('row', { name: /API_TOKEN Staging API/ })).toBeVisible();

  // the same name again: the server's 400 at the name field, everything typed kept
  await page.getByRole('button', { name: 'Add secret' }).click();
  dialog = page.getByRole('dialog', { name: 'Add secret' });
  await input(dialog, 'Name').fill('API_TOKEN');
  await input(dialog, 'Value').fill('another');
  await dialog.getByRole('button', { name: 'Add secret' }).click();
  await expect(dialog.getByText('Secret API_TOKEN already exists')).toBeVisible();
  await expect(input(dialog, 'Name')).toHaveAttribute('aria-invalid', 'true');
  await expect(input(dialog, 'Value')).toHaveValue('another');
  // and a name that cannot be an environment variable, checked before sending
  await input(dialog, 'Name').fill('MY-TOKEN');
  await dialog.getByRole('button', { name: 'Add secret' }).click();
  await expect(dialog.getByText('Secret names become environment variables')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('dialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard changes' }).click();

  // rename and change the value
  await page.getByRole('button', { name: 'Edit API_TOKEN' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit API_TOKEN' });
  await input(dialog, 'Name').fill('SERVICE_TOKEN');
  await input(dialog, 'New value').fill('second-secret-value');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(table.getByRole('row', { name: /SERVICE_TOKEN Staging API/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /API_TOKEN/ }).filter({ hasNotText: 'SERVICE' })).toHaveCount(0);

  const secrets = await api('/api/secrets');
  expect(secrets.json()).toEqual({ custom_secrets: [{ name: 'SERVICE_TOKEN', description: 'Staging API' }] });
  expect(secrets.text).not.toContain('secret-value');

  // delete, after a confirmation
  await page.getByRole('button', { name: 'Delete SERVICE_TOKEN' }).click();
  await page.getByRole('dialog', { name: 'Delete SERVICE_TOKEN?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No custom secrets yet')).toBeVisible();
  expect((await api('/api/secrets')).json()).toEqual({ custom_secrets: [] });
});

test('where the server cannot change a value in place (OpenHands), a new value replaces the secret', async ({ page, signIn, api }) => {
  await api('/api/secrets', { method: 'POST', body: { name: 'API_TOKEN', value: 'old-value', description: 'Staging API' } });
  // An OpenAPI document like OpenHands': the PUT body offers no value.
  await page.route('**/openapi.json', (route) =>
    route.fulfill({
      json: {
        openapi: '3.1.0',
        paths: {
          '/api/secrets/{name}': {
            put: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/POSTCustomSecrets' } } } } },
          },
        },
        components: { schemas: { POSTCustomSecrets: { properties: { name: {}, description: {} } } } },
      },
    }),
  );
  const writes: { method: string; path: string; body: unknown }[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/secrets') && request.method() !== 'GET') {
      writes.push({ method: request.method(), path: pathname, body: request.postDataJSON() });
    }
  });
  await openSecrets(page, signIn);

  await page.getByRole('button', { name: 'Edit API_TOKEN' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit API_TOKEN' });
  await expect(dialog.getByText('This server cannot change values in place')).toBeVisible();
  await input(dialog, 'New value').fill('second-value');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  // Deleted, then created again with the new value: no PUT the server would ignore.
  expect(writes).toEqual([
    { method: 'DELETE', path: '/api/secrets/API_TOKEN', body: null },
    { method: 'POST', path: '/api/secrets', body: { name: 'API_TOKEN', value: 'second-value', description: 'Staging API' } },
  ]);
  expect((await api('/api/secrets')).json()).toEqual({ custom_secrets: [{ name: 'API_TOKEN', description: 'Staging API' }] });
  await expect(page.getByRole('table', { name: 'Custom secrets' }).getByRole('row', { name: /API_TOKEN Staging API/ })).toBeVisible();
});

test('notifications still show when their code cannot be fetched (the server was updated meanwhile)', async ({ page, signIn }) => {
  await page.route(`**${builtAssetPath('src/app/notifications-container.ts')}`, (route) =>
    route.fulfill({ status: 404, body: 'Not Found' }),
  );
  await openSecrets(page, signIn);
  await page.getByRole('button', { name: 'Add secret' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add secret' });
  await input(dialog, 'Name').fill('API_TOKEN');
  await input(dialog, 'Value').fill('a-value');
  await dialog.getByRole('button', { name: 'Add secret' }).click();
  const notice = page.getByRole('alert').filter({ hasText: 'Secret added' });
  await expect(notice).toContainText('API_TOKEN');
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toBeHidden();
  await expect(page.getByRole('table', { name: 'Custom secrets' }).getByRole('row', { name: /API_TOKEN/ })).toBeVisible();
});

test('closing the secret dialog with something typed asks first', async ({ page, signIn }) => {
  await openSecrets(page, signIn);
  await page.getByRole('button', { name: 'Add secret' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add secret' });
  await input(dialog, 'Value').fill('pasted-and-not-saved');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  const discard = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
  await discard.getByRole('button', { name: 'Keep editing' }).click();
  await expect(input(dialog, 'Value')).toHaveValue('pasted-and-not-saved');
  await page.keyboard.press('Escape');
  await discard.getByRole('button', { name: 'Discard changes' }).click();
  await expect(dialog).toBeHidden();
});

test('a control pointed at when its tooltip arrives is not replaced, so a click on it is not lost; the tooltip comes once it is left', async ({
  page,
  signIn,
  api,
}) => {
  await api('/api/secrets', { method: 'POST', body: { name: 'CLICKED', value: 'v' } });
  const tooltipCode = `**${builtAssetPath('src/components/tooltip-loaded.ts')}`;
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(tooltipCode, async (route) => {
    await held;
    await route.continue();
  });
  await openSecrets(page, signIn);
  const remove = page.getByRole('button', { name: 'Delete CLICKED' });
  await remove.hover();
  const pointedAt = await remove.elementHandle();
  const arrived = page.waitForResponse(tooltipCode);
  release();
  await (await arrived).finished();
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
  // Pointed at (not focused), it is the same control: a click pressed now ends on it.
  expect(await pointedAt!.evaluate((element) => element.isConnected)).toBe(true);
  await page.mouse.down();
  await page.mouse.up();
  const dialog = page.getByRole('dialog', { name: 'Delete CLICKED?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  // Once the pointer and the focus (given back by the dialog) have left, the control has its tooltip.
  await page.getByRole('heading', { name: 'Git & secrets', level: 1 }).click();
  await remove.hover();
  await expect(page.getByRole('tooltip', { name: 'Delete' })).toBeVisible();
});

test('a delete that fails puts the secret back and says why', async ({ page, signIn, api }) => {
  await api('/api/secrets', { method: 'POST', body: { name: 'KEEP_ME', value: 'v' } });
  await openSecrets(page, signIn);
  const row = page.getByRole('table', { name: 'Custom secrets' }).getByRole('row', { name: /KEEP_ME/ });
  await expect(row).toBeVisible();

  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/secrets/KEEP_ME', async (route) => {
    await held; // hold the request so the optimistic removal can be seen
    await route.abort('connectionrefused');
  });
  await page.getByRole('button', { name: 'Delete KEEP_ME' }).click();
  await page.getByRole('dialog', { name: 'Delete KEEP_ME?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(row).toBeHidden(); // gone at once
  release();
  await expect(row).toBeVisible(); // back when the request failed
  await expect(page.getByText('KEEP_ME was not deleted')).toBeVisible();
  expect((await api('/api/secrets')).json()).toEqual({ custom_secrets: [{ name: 'KEEP_ME', description: '' }] });
});
