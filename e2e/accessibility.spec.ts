import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './support/fixtures';

test('the sign-in screen and the Settings page have no serious accessibility violations', async ({ page, signIn }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in to Agent Console' })).toBeVisible();
  const signInScan = await new AxeBuilder({ page }).analyze();
  expect(
    signInScan.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`),
  ).toEqual([]);

  await signIn(page);
  const settingsScan = await new AxeBuilder({ page }).analyze();
  expect(
    settingsScan.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`),
  ).toEqual([]);
});
