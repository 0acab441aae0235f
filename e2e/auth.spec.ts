import { NAVIGATION_PAGES, PAGES } from '../src/app/pages';
import { expect, test } from './support/fixtures';

test.describe('signing in', () => {
  test('through the link the server prints, which then leaves the address bar', async ({ page, server }) => {
    expect(server.signInLink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#key=/);
    await page.goto(server.signInLink);
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await expect(page).toHaveURL(`${server.url}/settings`);
    expect(page.url()).not.toContain(server.key);
    // Still signed in after a reload: the key was stored.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  });

  test('through the link opened in a tab that already shows the sign-in screen', async ({ page, server }) => {
    await page.goto('/settings');
    await expect(page.getByRole('heading', { name: 'Sign in to Agent Console' })).toBeVisible();
    await page.goto(`${server.url}/settings#key=${server.key}`); // only the hash changes: no reload
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    expect(page.url()).not.toContain(server.key);
  });

  test('through the sign-in screen, refusing a wrong key', async ({ page, server }) => {
    await page.goto('/sandboxes');
    await expect(page.getByRole('heading', { name: 'Sign in to Agent Console' })).toBeVisible();
    const keyInput = page.getByLabel('Session API key');
    await keyInput.fill('not-the-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('That key was not accepted')).toBeVisible();

    await keyInput.fill(server.key);
    await keyInput.press('Enter');
    await expect(page.getByRole('heading', { name: 'Sandboxes', level: 1 })).toBeVisible();
    await expect(page).toHaveURL(/\/sandboxes$/);
  });

  test('says so when another server cannot be reached', async ({ page, server }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Connect to another server' }).click();
    await page.getByLabel('Server URL').fill('127.0.0.1:9');
    await page.getByLabel('Session API key').fill(server.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Cannot reach http://127.0.0.1:9')).toBeVisible();
  });

  test('a 401 from the server returns to the sign-in screen', async ({ page, signIn }) => {
    await signIn(page);
    // The key the console holds stops being valid (as when the server's key is rotated).
    await page.evaluate(() => localStorage.setItem('agent-console.session', JSON.stringify({ apiKey: 'revoked', baseUrl: '' })));
    const refused = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/settings' && r.status() === 401);
    await page.reload();
    await refused;
    await expect(page.getByRole('dialog', { name: 'Sign in to Agent Console' })).toBeVisible();
  });

  test('when the server stops taking the key mid-edit, signing in again keeps the unsaved edit', async ({ page, signIn, server, api }) => {
    await signIn(page);
    const gitName = page.locator('input').and(page.getByLabel('Git user name', { exact: true }));
    await gitName.fill('typed before the key changed');

    await server.restart({ SESSION_API_KEY: 'rotated-key-0123456789' });
    await page.getByRole('button', { name: 'Save changes' }).click();

    const dialog = page.getByRole('dialog', { name: 'Sign in to Agent Console' });
    await expect(dialog).toContainText('no longer accepts your session key');
    await dialog.getByLabel('Session API key').fill('rotated-key-0123456789');
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await expect(dialog).toBeHidden();

    await expect(gitName).toHaveValue('typed before the key changed');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Settings saved')).toBeVisible();
    expect(server.key).toBe('rotated-key-0123456789');
    expect((await api('/api/settings')).json()).toMatchObject({ git_user_name: 'typed before the key changed' });
  });

  test('signing out with unsaved changes asks first', async ({ page, signIn }) => {
    await signIn(page);
    const gitName = page.getByLabel('Git user name', { exact: true });
    await gitName.fill('not saved yet');
    await page.getByRole('button', { name: 'Sign out' }).click();
    const dialog = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await dialog.getByRole('button', { name: 'Stay on this page' }).click();
    await expect(gitName).toHaveValue('not saved yet');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await dialog.getByRole('button', { name: 'Discard changes' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to Agent Console' })).toBeVisible();
    await signIn(page); // and back at Settings, not at a sign-out address
    await expect(page).toHaveURL(/\/settings$/);
  });

  test('signing out forgets the key', async ({ page, signIn }) => {
    await signIn(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to Agent Console' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Sign in to Agent Console' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('agent-console.session'))).toBeNull();
  });
});

test.describe('navigation', () => {
  test('the shell links every page with real links and history routes', async ({ page, signIn, server }) => {
    await signIn(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of NAVIGATION_PAGES) {
      await expect(nav.getByRole('link', { name: PAGES[name].title, exact: true })).toHaveAttribute('href', PAGES[name].path);
    }
    await expect(nav.getByRole('link')).toHaveCount(NAVIGATION_PAGES.length);
    await nav.getByRole('link', { name: 'Sandbox specs' }).click();
    await expect(page).toHaveURL(`${server.url}/sandbox-specs`);
    await expect(page.getByRole('heading', { name: 'Sandbox specs', level: 1 })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();

    // A deep link loads directly (the server responds with index.html for it).
    await page.goto('/conversations/abc123');
    await expect(page.getByText('Conversation not found')).toBeVisible();
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.goto('/');
    await expect(page).toHaveURL(`${server.url}/settings`);
  });
});
