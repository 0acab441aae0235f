import { expect, test } from './support/fixtures';

/*
 * A new user's first visit, through the link the server prints: nothing in the browser's console
 * says something failed (a failed request shows there as an error too).
 */

test('the first visit through the printed sign-in link logs no error and no failed request', async ({ page, server }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()} at ${message.location().url}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });

  await page.goto(server.signInLink);
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  // The form is filled in from what the page asked for: every request has had its response.
  await page.waitForLoadState('networkidle');
  expect(problems).toEqual([]);
});
