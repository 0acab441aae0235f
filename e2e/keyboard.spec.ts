import { expect, test } from './support/fixtures';

test('dialogs and drawers work from the keyboard and give the focus back to what opened them', async ({ page, signIn, api }) => {
  await api('/api/secrets', { method: 'POST', body: { name: 'API_TOKEN', value: 'a-value' } });
  await signIn(page);

  // A drawer: opened with Enter on its first field, closed with Escape.
  await page.getByRole('link', { name: 'MCP servers' }).click();
  const addServer = page.getByRole('button', { name: 'Add server' });
  await addServer.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog').getByLabel('Name', { exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(addServer).toBeFocused();

  // A dialog with a form: opened with Enter, the first field has the focus, Escape closes it.
  await page.getByRole('link', { name: 'Git & secrets' }).click();
  await page.getByRole('tab', { name: /Custom secrets/ }).click();
  const addSecret = page.getByRole('button', { name: 'Add secret' });
  await addSecret.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Add secret' });
  await expect(dialog.getByLabel('Name')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(addSecret).toBeFocused();

  // A confirmation: Cancel has the focus, so Enter keeps the secret.
  const deleteSecret = page.getByRole('button', { name: 'Delete API_TOKEN' });
  await deleteSecret.focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: /Delete/ });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await expect(deleteSecret).toBeFocused();

  // Opened a second time, it is the same.
  await page.keyboard.press('Enter');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(deleteSecret).toBeFocused();
});
